export { emptyUsage, sumUsage, plainUsage, usageTotal } from './usage.js';
export { MODEL_SPECS, checkModel, resolveModel } from './resolve-model.js';
export { modelIdentity } from './model-identity.js';
export type { ModelIdentity } from './model-identity.js';
export type { ModelSpec } from './resolve-model.js';
export { ANSWER_SPECS, MODEL_ANSWER_VERSION } from './model-answer.js';
export type { AnswerSpec, ModelAnswer, ModelCallFailure } from './model-answer.js';
export { failedAnswer, failureError, isFailedAnswer } from './failed-answer.js';
export {
  answerParts,
  answerResult,
  answerToolCalls,
  generatedAnswer,
  streamedAnswer,
} from './answer-forms.js';
export type { AskedToolCall } from './answer-forms.js';
export { readModelAnswer } from './read-model-answer.js';
export { hashModelRequest, modelRequestOf } from './model-request.js';
export { journaledModel } from './journaled-model.js';
export type { ModelCallRecorder, RecordedModelCall } from './journaled-model.js';
export { isReplayedCall, recordedPrice, replayedMetadata } from './replayed-call.js';
export { callCost, checkPrices, modelPrice } from './price.js';
export { uniqueCallIds } from './unique-call-ids.js';
export type { ModelPrice, ModelPrices, PriceInput, PriceRate } from './price.js';
