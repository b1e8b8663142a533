import { JuneError } from 'june';

/**
 * The `JuneError` `promise` rejects with; throws (failing the test) when it resolves or
 * rejects with anything else, naming what it got.
 */
export async function juneFailure(promise: Promise<unknown>): Promise<JuneError> {
  const error = await promise.then(
    () => new Error('expected a JuneError, but the promise resolved'),
    (caught: unknown) => caught,
  );
  if (!JuneError.isInstance(error)) throw new Error(`expected a JuneError, got ${String(error)}`);
  return error;
}
