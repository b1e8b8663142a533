export { toUIMessageStream, runUIMessageResponse } from './to-ui-message-stream.js';
export type { ToUIMessageStreamOptions, RunEvents } from './to-ui-message-stream.js';
export { UIChunkMapper } from './ui-chunk-mapper.js';
export type { UIChunkMapperOptions } from './ui-chunk-mapper.js';
export { RunWaits } from './run-waits.js';
export type { ResumeFilterOptions } from './resume-filter.js';
export type {
  JuneUIMessage,
  JuneUIMessageChunk,
  JuneMessageMetadata,
  JuneDataParts,
  JuneRunData,
  JuneAgentData,
  JuneStepData,
  JuneApprovalData,
  JuneQuestionData,
  JuneGuardData,
  JuneBudgetData,
  JuneCatchData,
} from './june-ui-message.js';
export { chatHandler } from './chat-handler.js';
export type {
  ChatHandler,
  ChatHandlerOptions,
  DbosChatOptions,
  DurableChatHandlerOptions,
  HostChatHandlerOptions,
} from './chat-handler.js';
export type { HostChatOptions, ChatThreadOption } from './host-chat.js';
export type { ChatApprovalAnswer } from './chat-request.js';
export { ChatRequestError } from './chat-request-error.js';
export { ChatTurns, chatTurnStep } from './chat-turns.js';
export type { ChatInput, ChatHistoryMessage, ChatTurnsProps } from './chat-turns.js';
export { DEFAULT_CHAT_LIMITS } from './chat-limits.js';
export type { ChatLimits } from './chat-limits.js';
