import {
  DownloadError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  UnsupportedFunctionalityError,
  type LanguageModel,
  type ModelMessage,
} from 'ai';
import { JuneError, ModelBehaviorError, SystemError, WorkflowError } from '../errors/june-error.js';
import { modelIdentity } from '../models/model-identity.js';
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
 * - a prompt with files the model cannot take (the provider's `UnsupportedFunctionalityError`,
 *   or the AI SDK's `DownloadError` for a URL the provider does not take and that could not
 *   be fetched): {@link WorkflowError} `model-file-unsupported`, naming the files' media types
 *   and the model;
 * - anything else failed in the call to the provider: {@link SystemError} `model-call-failed`
 *   (the provider's error is the `cause`).
 *
 * @param call the round's model and messages, to name the files a model could not take
 */
export function modelFailure(
  error: unknown,
  step: string,
  call?: { model: LanguageModel; messages: readonly ModelMessage[] },
): unknown {
  if (JuneError.isInstance(error)) return error;
  const files = call ? fileMediaTypes(call.messages) : [];
  if (
    call &&
    files.length > 0 &&
    (UnsupportedFunctionalityError.isInstance(error) || DownloadError.isInstance(error))
  ) {
    const { provider, modelId } = modelIdentity(call.model);
    const model = [provider, modelId].filter(Boolean).join(' ') || 'the model';
    const reason = errorMessage(error).replace(/\.$/, '');
    return new WorkflowError(
      'model-file-unsupported',
      `june: the model ${model} of step "${step}" cannot take the ${files.join(', ')} file${files.length === 1 ? '' : 's'} in its prompt: ${reason}. Send a file of a media type the provider supports (as a data: URL), or give the agent a model that reads such files.`,
      {
        cause: error,
        details: {
          step,
          mediaTypes: files,
          ...(provider !== undefined ? { provider } : {}),
          ...(modelId !== undefined ? { modelId } : {}),
        },
      },
    );
  }
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

/** The media types of the file and image parts in the user messages, each once, in order. */
function fileMediaTypes(messages: readonly ModelMessage[]): string[] {
  const types = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'file') types.add(part.mediaType);
      else if (part.type === 'image') types.add(part.mediaType ?? 'image');
    }
  }
  return [...types];
}
