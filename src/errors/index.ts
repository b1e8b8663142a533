export {
  JuneError,
  WorkflowError,
  ModelBehaviorError,
  SystemError,
  RunAbortedError,
} from './june-error.js';
export type { JuneErrorBlame, JuneErrorOptions } from './june-error.js';
export { errorData, thrownValueText } from './error-data.js';
export type { ErrorData } from './error-data.js';
