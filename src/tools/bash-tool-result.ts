// What a bash tool call returns, in a file of its own: the tool and the command runner both
// use it, and neither imports the other for it.

/** Which streams were cut, and at how many bytes. */
export interface BashToolTruncation {
  /** The streams that had more than `maxOutputBytes` bytes. */
  streams: Array<'stdout' | 'stderr'>;
  /** The cap, in bytes, per stream. */
  maxOutputBytes: number;
}

/** What a call returns: plain JSON, and never the `cwd` or `env` it ran with. */
export interface BashToolResult {
  /** bash's exit status; `null` when it was ended by a signal. */
  exitCode: number | null;
  /** The signal that ended bash (`"SIGTERM"`, `"SIGKILL"`), or `null`. */
  signal: NodeJS.Signals | null;
  /** True when the command ran out of time and was stopped. */
  timedOut: boolean;
  /** Standard output as UTF-8 text; bytes that are not UTF-8 become U+FFFD. */
  stdout: string;
  /** Standard error, as `stdout`. */
  stderr: string;
  /** `false`, or which streams were cut at `maxOutputBytes` bytes. */
  truncated: false | BashToolTruncation;
  /**
   * Wall-clock milliseconds from start until every process of the command was gone. Kept in
   * events, traces and journals; the model is not given it (it changes from run to run).
   */
  durationMs: number;
}
