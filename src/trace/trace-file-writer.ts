import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Trace } from './trace-node.js';

/** Options of {@link TraceFileWriter}. */
export interface TraceFileWriterOptions {
  /** The files to write, absolute or relative to the current directory; folders are created (mode 0700, files 0600). */
  paths: string[];
  /** Reads the trace as it stands (a plain JSON snapshot). */
  snapshot: () => Trace;
  /** The shortest time between two writes, in milliseconds. @default 200 */
  minIntervalMs?: number;
}

/**
 * Writes a run's trace to files as the run goes: {@link TraceFileWriter.schedule} after
 * something happens writes at most once per `minIntervalMs`, and {@link TraceFileWriter.close}
 * writes the final trace. Each write goes to a temporary file renamed over the old one, so a
 * reader (Studio) never sees half a file.
 *
 * @example
 * ```ts
 * const writer = new TraceFileWriter({ paths: ['.june/runs/x.json'], snapshot: () => handle.trace() });
 * for await (const event of handle.events) writer.schedule();
 * await writer.close(handle.trace());
 * ```
 */
export class TraceFileWriter {
  readonly #paths: string[];
  readonly #snapshot: () => Trace;
  readonly #minIntervalMs: number;
  #lastWriteAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #closed = false;
  #failure: unknown;

  constructor(options: TraceFileWriterOptions) {
    this.#paths = options.paths;
    this.#snapshot = options.snapshot;
    this.#minIntervalMs = options.minIntervalMs ?? 200;
  }

  /** Asks for a write: now if the last one was long enough ago, else once the interval has passed. */
  schedule(): void {
    if (this.#closed || this.#timer) return;
    const waitMs = this.#lastWriteAt + this.#minIntervalMs - Date.now();
    if (waitMs <= 0) return this.#enqueue(this.#snapshot());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#enqueue(this.#snapshot());
    }, waitMs);
  }

  /**
   * Writes now, whatever the interval (a scheduled write is taken up in this one): for a
   * moment readers of the file must see at once, such as a run starting to wait for a person.
   */
  writeNow(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#enqueue(this.#snapshot());
  }

  /**
   * Cancels any scheduled write, writes `trace` to every path and stops.
   *
   * @throws the file system's error when a file cannot be written (the last write, or an
   *   earlier one that failed).
   */
  async close(trace: Trace): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#enqueue(trace);
    await this.#writing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * Writes `trace` to every path at once, synchronously, and stops: for a process about to
   * exit (a write still in flight is never finished, so this one stays). Never throws.
   */
  closeNow(trace: Trace): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const text = `${JSON.stringify(trace, null, 2)}\n`;
    for (const path of this.#paths) {
      try {
        mkdirSync(dirname(path), { recursive: true });
        const temp = `${path}.${process.pid}.last.tmp`;
        writeFileSync(temp, text);
        renameSync(temp, path);
      } catch {
        // quitting: a trace that cannot be written is left as it was
      }
    }
  }

  #enqueue(trace: Trace): void {
    this.#lastWriteAt = Date.now();
    const text = `${JSON.stringify(trace, null, 2)}\n`;
    this.#writing = this.#writing
      .then(() => this.#write(text))
      .catch((error: unknown) => {
        this.#failure ??= error;
      });
  }

  async #write(text: string): Promise<void> {
    for (const path of this.#paths) {
      // private to their user: folders 0700 and files 0600 when created (a trace may hold what a tool printed)
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temp = `${path}.${process.pid}.tmp`;
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, path);
    }
  }
}
