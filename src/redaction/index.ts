export { Redactor, REDACTED } from './redactor.js';
export type { RedactOptions } from './redactor.js';
export { secretStrings } from './secret-strings.js';
export {
  configuredSecrets,
  registerUrlSecrets,
  registerHeaderSecrets,
  registerEnvSecrets,
  registerSecretValue,
  MIN_SECRET_LENGTH,
} from './configured-secrets.js';
