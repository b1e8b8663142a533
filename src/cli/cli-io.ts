/**
 * The streams a command reads and writes: the process's own in `june`, others in tests.
 *
 * @example
 * ```ts
 * const io: CliIO = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
 * ```
 */
export interface CliIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/**
 * The process's standard streams. A closed pipe (`june run x --json | head`), or a terminal
 * that went away (EIO), is ignored: the run goes on, and its trace is still written.
 *
 * @example
 * ```ts
 * await runCommand('examples/release.tsx', { approve: 'all' }, processIO());
 * ```
 */
export function processIO(): CliIO {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
    });
  }
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}
