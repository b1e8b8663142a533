export { scriptedModel } from './scripted-model.js';
export type {
  ScriptedModel,
  ScriptedModelOptions,
  ScriptedCall,
  ScriptedTurnRef,
} from './scripted-model.js';
export { loadScript } from './load-script.js';
export { modelScriptSchema } from './script-format.js';
export type {
  ModelScript,
  ScriptApprovalAnswer,
  ScriptTurn,
  ScriptToolCall,
  ScriptUsage,
} from './script-format.js';
export { scriptAnswers } from './script-answers.js';
export { mockUsage } from './mock-usage.js';
export { scriptAfterJournal } from './script-after-journal.js';
