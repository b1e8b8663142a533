export {
  JuneError,
  WorkflowError,
  ModelBehaviorError,
  SystemError,
  RunAbortedError,
  errorOfBlame,
} from './june-error.js';
export { juneErrorCodes } from './june-error-code.js';
export type { JuneErrorCode } from './june-error-code.js';
export type { ErrorComparison, JuneErrorBlame, JuneErrorOptions } from './june-error.js';
export { errorData, thrownValueText } from './error-data.js';
export { errorMessage } from './error-message.js';
export { revivedError } from './revived-error.js';
export type { ErrorData, ErrorDataOptions } from './error-data.js';
export type {
  CollidingDeclaration,
  DetailedErrorCode,
  JuneErrorDetails,
  JuneErrorDetailsByCode,
} from './june-error-details.js';
