import { NoObjectGeneratedError, NoOutputGeneratedError } from 'ai';
import { JuneError, ModelBehaviorError, SystemError } from '../errors/june-error.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * The one classifier of a step's failed round, shared by the streaming (`streamText`) and
 * batch (`generateText`) paths, so the same fault gets the same code and blame in both:
 *
 * - a {@link JuneError} (a scripted model's, an abort) stays as it is;
 * - an answer that does not parse as the step's `output` (the AI SDK's
 *   `NoObjectGeneratedError`, or `NoOutputGeneratedError`: an empty answer) is the model's
 *   fault: {@link ModelBehaviorError} `step-output-invalid`. `generateText` throws these from
 *   the call itself, `streamText` from its `output` once the stream has ended;
 * - anything else failed in the call to the provider: {@link SystemError} `model-call-failed`
 *   (the provider's error is the `cause`).
 */
export function modelFailure(error: unknown, step: string): unknown {
  if (JuneError.isInstance(error)) return error;
  if (NoObjectGeneratedError.isInstance(error) || NoOutputGeneratedError.isInstance(error)) {
    return new ModelBehaviorError(
      'step-output-invalid',
      `june: the model's answer to step "${step}" does not match the step's output: ${errorMessage(error).replace(/\.$/, '')}. Ask for the fields in the prompt, or loosen the output's schema.`,
      { cause: error },
    );
  }
  const message = errorMessage(error).replace(/\.$/, '');
  return new SystemError(
    'model-call-failed',
    `june: the model call of step "${step}" failed: ${message}. Check the agent's model and its provider's settings (API key, base URL, model id); error.cause holds the provider's error.`,
    { cause: error },
  );
}
