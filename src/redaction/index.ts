export { Redactor, REDACTED } from './redactor.js';
export type { RedactOptions } from './redactor.js';
export { secretStrings } from './secret-strings.js';
export {
  configuredSecrets,
  registerUrlSecrets,
  registerHeaderSecrets,
  registerEnvSecrets,
  registerSecretValue,
  registerKnownCredentials,
  MIN_SECRET_LENGTH,
} from './configured-secrets.js';
export { KNOWN_KEY_VARIABLES, KNOWN_URL_VARIABLES } from './known-credentials.js';
