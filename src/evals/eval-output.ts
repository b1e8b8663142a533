import type { LanguageModelUsage } from 'ai';
import type { Trace } from '../trace/trace-node.js';

/** Where a case's model answers came from: a model script, a recorded run, or the workflow's own models. */
export type EvalModelSource = 'script' | 'replay' | 'provider';

/**
 * What a workflow task gives evalite for one case: the run's results and its trace, with
 * where to see the run in June Studio. Scorers read it as `output`; evalite stores it with
 * the case, so the eval UI and its exported results link each case back to its run. Every
 * string in it has passed the run's redaction (`[redacted]` for its secrets), as its trace has.
 *
 * - `caseId`: the case's `id`;
 * - `runId`, `status`: the run's id and how it ended (`succeeded`, `failed`, `aborted`);
 * - `output`, `steps`: the run's results (`result.output`, `result.steps`); `{}` and
 *   `undefined` when the run failed;
 * - `answer`: `output` as text (a string as it is, anything else as JSON), for scorers that compare text;
 * - `usage`: the tokens of the whole run, child runs included;
 * - `error`: why the run failed (`code` for a `JuneError`), when it did;
 * - `trace`: the run's whole trace (the same as its trace file);
 * - `traceFile`: the absolute path of the run's trace file, `<runsDir>/<runId>.json`;
 * - `studioUrl`: the run in June Studio (`http://127.0.0.1:4000/#/runs/<runId>`), with
 *   Studio started on `runsDir` (`npx june studio <runsDir>`); absent with `studioUrl: false`;
 * - `model`: where the answers came from.
 */
export interface WorkflowEvalOutput<OUTPUT = unknown> {
  caseId: string;
  runId: string;
  status: Trace['status'];
  output: OUTPUT | undefined;
  steps: Record<string, unknown>;
  answer: string;
  usage: LanguageModelUsage;
  error?: { code?: string; message: string };
  trace: Trace;
  traceFile: string;
  studioUrl?: string;
  model: EvalModelSource;
}
