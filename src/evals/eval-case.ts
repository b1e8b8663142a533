import type { ModelCallSettings } from '../models/settings-from.js';

/**
 * How a case's approval requests are answered when no `onApproval` policy is given:
 * `all` approves every request, `none` denies every one (as `june run --approve`). Either
 * way the request and its answer stay in the trace, answered automatically.
 */
export type EvalApprove = 'all' | 'none';

/**
 * What an eval case runs: the workflow's props, and where its models' answers come from.
 * Evalite hands it to the task as `input`; {@link loadDataset} makes it from a JSONL line.
 *
 * - `id`: the case's name, unique in its dataset; results of two eval runs are compared by it;
 * - `props`: the root component's props; left out with `replay`, the recorded run's props;
 * - `script`: the absolute path of a model script (`june/testing`) that answers every model
 *   call of the run, offline;
 * - `replay`: the absolute path of a recorded run's `journal.jsonl` that answers every model
 *   call, offline (tools still run, unless `replayTools`);
 * - `replayTools`: with `replay`, answer tool calls from the recording too;
 * - `approve`: how approval requests are answered. @default 'all'
 * - `fork`: run a fork of a recorded run instead of a new run (see {@link EvalFork}): the
 *   recorded run up to the fork point replays, the case's change is made there, and the rest
 *   runs live, its model calls answered by `script` (offline) or the workflow's models;
 *
 * With neither `script` nor `replay`, the run calls the models the workflow names (the
 * configured provider).
 */
export interface EvalCaseInput<PROPS extends Record<string, unknown> = Record<string, unknown>> {
  id: string;
  props?: PROPS;
  script?: string;
  replay?: string;
  replayTools?: boolean;
  approve?: EvalApprove;
  fork?: EvalFork;
}

/**
 * A case that forks a recorded run (`forkRun`): `from`, the run id of a run recorded in the
 * task's `runsDir`; `at`, the record's name or number (`june fork <run>` lists them); and
 * one change there: `result` (a tool execution's result), `answer` (`approve` or `deny`, at
 * an approval), `output` (a model call's answer or a question's), or, at a model call,
 * `model` (a model id) and/or `settings` (call settings: `temperature`, `maxOutputTokens`,
 * ..., as `june fork --settings` takes them), for the call at `at` and its agent's later ones
 * (every agent's with `allAgents`). The case's props default to the recorded run's.
 *
 * @example
 * ```json
 * {"id": "sold-out", "fork": {"from": "20261207-101500-3fa94c1e27b0", "at": "tool fetch research#0.0", "result": "sold out"}, "script": "after-fork.script.json"}
 * ```
 */
export interface EvalFork {
  from: string;
  at: string | number;
  result?: unknown;
  answer?: 'approve' | 'deny';
  output?: unknown;
  model?: string;
  settings?: ModelCallSettings;
  allAgents?: boolean;
}

/**
 * One case of a dataset, in the shape evalite's `data` takes: `input` (what runs) and
 * `expected` (what the scorers compare against; any JSON from the dataset line).
 */
export interface EvalCase<
  PROPS extends Record<string, unknown> = Record<string, unknown>,
  EXPECTED = unknown,
> {
  input: EvalCaseInput<PROPS>;
  expected?: EXPECTED;
}

/**
 * The expectations June's own scorers read from a case's `expected` when they are not given
 * their own argument (see `toolsCalled` and the others in `june/evals`). Each is optional,
 * and `expected` may hold anything else besides (an answer to check, for your own scorers).
 *
 * - `toolsCalled`: tools the run must call, at least once each;
 * - `toolsNotCalled`: tools it must never call;
 * - `approvalsAsked`: tools whose every call must wait for an approval before it runs;
 * - `denials`: how many tool calls end denied; 0 unless said;
 * - `childRuns`: how many child runs (composite tool calls) the run starts;
 * - `maxTokens`: the most tokens the whole run may use, child runs included;
 * - `maxSteps`: the most model calls (AI SDK steps) the whole run may make, child runs included;
 * - `guardDecisions`: how many decisions of each action the run's `<Guard>`s make
 *   (`{ "reject": 1, "trip": 0 }`; only the actions named are checked).
 */
export interface JuneExpectations {
  toolsCalled?: string[];
  toolsNotCalled?: string[];
  approvalsAsked?: string[];
  denials?: number;
  childRuns?: number;
  maxTokens?: number;
  maxSteps?: number;
  guardDecisions?: Partial<Record<'allow' | 'reject' | 'trip' | 'escalate', number>>;
}
