import { JuneError, SystemError } from '../errors/june-error.js';
import { errorMessage } from '../errors/error-message.js';

/** A failed model call as a {@link SystemError} naming the step (a {@link JuneError} stays as it is). */
export function modelFailure(error: unknown, step: string): unknown {
  if (JuneError.isInstance(error)) return error;
  const message = errorMessage(error).replace(/\.$/, '');
  return new SystemError(
    'model-call-failed',
    `june: the model call of step "${step}" failed: ${message}. Check the agent's model and its provider's settings (API key, base URL, model id); error.cause holds the provider's error.`,
    { cause: error },
  );
}
