import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/**
 * Thrown by a model call's work when the call must not be recorded (its stream failed or was
 * aborted); carries what the caller still gets.
 */
export class Unrecorded<T> extends Error {
  constructor(readonly value: T) {
    super('june: the model call did not finish cleanly; it is not recorded');
  }
}

/**
 * Thrown by a model call's work when its stream failed once it had begun (an `error` part,
 * or a read that threw) without an abort: `error` is the failure, which is recorded.
 */
export class StreamFailure extends Error {
  constructor(readonly error: unknown) {
    super("june: the model call's stream failed");
  }
}

/**
 * The parts of a model's stream, passed on as they come (`output`) and collected, up to the
 * first `tool-call` part: from there on they are held back. `ended` resolves with every part
 * once the stream ended cleanly (no `error` part, no abort), and rejects otherwise (with
 * {@link StreamFailure} for a stream that failed, with {@link Unrecorded} for an aborted
 * one, with the error for one that threw while aborted).
 * The held parts are passed on once the call's recording settles ({@link releaseWhen}): all
 * of them when it was recorded, without the tool calls when it was not (a failed call's tool
 * calls never run), and the output fails with the error when recording failed. A stream
 * that threw fails its output only once the recording settled, so whatever the failure
 * leads to (a `<Catch>` retry) comes after its record.
 */
export class HeldStream {
  readonly ended: Promise<LanguageModelV4StreamPart[]>;
  readonly output: ReadableStream<LanguageModelV4StreamPart>;
  #end!: { resolve: (parts: LanguageModelV4StreamPart[]) => void; reject: (e: unknown) => void };
  #recorded: Promise<boolean> | undefined;

  constructor(source: ReadableStream<LanguageModelV4StreamPart>, signal: AbortSignal | undefined) {
    this.ended = new Promise((resolve, reject) => (this.#end = { resolve, reject }));
    this.ended.catch(() => {});
    const reader = source.getReader();
    const parts: LanguageModelV4StreamPart[] = [];
    const held: LanguageModelV4StreamPart[] = [];
    let failed: { error: unknown } | undefined;
    this.output = new ReadableStream<LanguageModelV4StreamPart>({
      pull: async (controller) => {
        try {
          while (true) {
            const next = await reader.read();
            if (next.done) {
              if (signal?.aborted) this.#end.reject(new Unrecorded(undefined));
              else if (failed) this.#end.reject(new StreamFailure(failed.error));
              else this.#end.resolve(parts);
              const recorded = await this.#recorded;
              for (const part of held)
                if (recorded || part.type !== 'tool-call') controller.enqueue(part);
              controller.close();
              return;
            }
            if (next.value.type === 'error') failed ??= { error: next.value.error };
            parts.push(copyOf(next.value));
            if (held.length === 0 && next.value.type !== 'tool-call') {
              controller.enqueue(next.value);
              return;
            }
            held.push(next.value);
          }
        } catch (error) {
          if (signal?.aborted) this.#end.reject(error);
          else {
            this.#end.reject(new StreamFailure(error));
            await this.#recorded?.catch(() => {});
          }
          controller.error(error);
        }
      },
      cancel: (reason) => {
        this.#end.reject(new Unrecorded(reason));
        return reader.cancel(reason);
      },
    });
  }

  /** Passes the held parts on once `answer` (the engine's recording of this call) settles. */
  releaseWhen(answer: Promise<unknown>): void {
    this.#recorded = answer.then(
      () => true,
      (error: unknown) => {
        if (error instanceof Unrecorded) return false;
        throw error;
      },
    );
    this.#recorded.catch(() => {});
  }
}

/** A deep copy of `value` (`structuredClone`), or `value` itself when it cannot be copied. */
export function copyOf<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
