/**
 * Loaded just before `@ai-sdk/openai` (its import comes first in `openai.ts`, and imports are
 * evaluated in order). `@ai-sdk/openai@4` builds its default provider when it loads, and
 * throws there (`baseURL must be a non-empty string`) when `OPENAI_BASE_URL` is set but
 * empty, which would make any workflow that imports `june/sdk/openai` fail to load. June
 * reads an empty variable as unset: while the package loads, an empty `OPENAI_BASE_URL` is
 * out of the environment, and {@link restoreEmptyBaseUrl} puts it back.
 */
const given = process.env.OPENAI_BASE_URL;
const hidden = given !== undefined && given.trim() === '';
if (hidden) delete process.env.OPENAI_BASE_URL;

/** Puts an empty `OPENAI_BASE_URL` back once `@ai-sdk/openai` has loaded (unless it was set since). */
export function restoreEmptyBaseUrl(): void {
  if (hidden && process.env.OPENAI_BASE_URL === undefined) process.env.OPENAI_BASE_URL = given;
}
