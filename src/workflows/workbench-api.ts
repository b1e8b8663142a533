/**
 * The data Studio's workbench serves (`june dev`): the workflows of a project, each with its
 * capability map, and the requests that start runs, call one tool or chat. Shared by the
 * server and the page, like `studio-api.ts`.
 *
 * Routes (all under Studio's access checks; the POSTs as answering ones: same origin and the
 * answer token, see `answer-request.ts`):
 *
 * - `GET /api/workflows` → {@link WorkflowList};
 * - `GET /api/workflows/<id>?props=<json>` → {@link WorkflowEntry}, its map resolved for those props;
 * - `POST /api/workflows/<id>/runs` with {@link StartRunRequest} → 202 {@link StartedRun};
 * - `POST /api/workflows/<id>/tools` with {@link TryToolRequest} → 200 {@link TriedTool};
 * - `POST /api/workflows/<id>/chat` → the `chatHandler` of `june/web` over the workflow
 *   (the AI SDK UI message stream);
 * - `GET /api/events` also sends `workflow` events ({@link WorkflowEvent}) when a file changes.
 *
 * `<id>` is the workflow file's path from the project root with `/` separators
 * (`workflows/release.tsx`), sent through `encodeURIComponent`.
 */
import type { InspectReport } from '../interpreter/inspect.js';

/** `GET /api/workflows`: every workflow `june dev` found, in path order. */
export interface WorkflowList {
  /** The project root the ids are relative to, as shown to the user. */
  root: string;
  workflows: WorkflowEntry[];
}

/** One workflow file: its map when it resolves, else the error that stops it. */
export interface WorkflowEntry {
  /** The file's path from the project root, `/`-separated: `workflows/release.tsx`. */
  id: string;
  /** The default export's name (`Release`), or the file's base name when it has none. */
  name: string;
  /** `ready` when the file loads and its scopes resolve, `broken` otherwise. */
  status: 'ready' | 'broken';
  /** When it was last loaded (ISO 8601). */
  loadedAt: string;
  /** The props the map was resolved for. */
  props: Record<string, unknown>;
  /** JSON Schema of the props, from a zod schema the file exports as `props`, if any. */
  propsSchema?: Record<string, unknown>;
  /** Whether the workflow takes chat messages (a `messages` prop), so the chat panel applies. */
  takesMessages: boolean;
  /** The capability map: `inspect()`'s report, with each tool's declaration and input schema. */
  map?: CapabilityMap;
  /** Why the workflow does not resolve: a `JuneError`'s code and `june:` message. */
  error?: WorkflowProblem;
  /**
   * The model script files in the workflow's folder (names ending `.script.json` or
   * `.chat.json`), paths from the project root, sorted: what the workbench proposes for its
   * runs and chats. Sent by `GET /api/workflows/<id>` only.
   */
  scripts?: string[];
}

/** `inspect()`'s report as Studio draws it. */
export type CapabilityMap = InspectReport;

/** A workflow that does not load or resolve. */
export interface WorkflowProblem {
  code: string;
  /** The error's message, starting `june: `. */
  message: string;
  /** Where it was declared, when the error names a declaration: `workflows/release.tsx:12`. */
  declaration?: string;
}

/** How the model of a run started from Studio answers. */
export type ModelChoice =
  /** A script file of turns (`june/testing`), by its path from the project root. */
  | { kind: 'script'; path: string }
  /** The model calls of a recorded run, by its run id. */
  | { kind: 'replay'; runId: string }
  /** The provider the workflow configures (its environment must be set). */
  | { kind: 'provider' };

/** `POST /api/workflows/<id>/runs`. */
export interface StartRunRequest {
  props: Record<string, unknown>;
  model: ModelChoice;
}

/** The answer to a {@link StartRunRequest}: the run, an ordinary one in the runs folder. */
export interface StartedRun {
  runId: string;
}

/** `POST /api/workflows/<id>/tools`: one resolved tool, called once with `input`. */
export interface TryToolRequest {
  /** The agent's `path` in the map (`release > deployer`). */
  agent: string;
  /** The tool's name as that agent's model sees it. */
  tool: string;
  input: unknown;
  props: Record<string, unknown>;
  /**
   * The id the call's run gets, made by the page (a new run id), so the page can show the
   * approval the call waits for while the request is open. @default a new one
   */
  runId?: string;
}

/**
 * `POST /api/runs/<runId>/fork`: fork a recorded run of the runs folder at one of its records
 * with one change (see `forkRun`), and start the fork as a workbench run.
 *
 * - `at`: the record's name (a trace node's `record`, `tool fetch plan#0.0`; for an approval,
 *   `approval <tool> <call id>`) or its number;
 * - `change`: `{ result }` (a tool execution), `{ answer: 'approve' | 'deny', reason? }` (an
 *   approval), `{ output }` (a model call's text, a question's answer) or `{ model, allAgents? }`
 *   (a model call, made again by the model with that id; with `settings`, or `settings`
 *   alone, other call settings from that call on);
 * - `model`: how the models of the live part answer (as a start-run request's); needed
 *   unless `preview`;
 * - `preview`: only say what the fork would do ({@link ForkPreview}); nothing is made.
 */
export interface ForkRunRequest {
  at: string;
  change:
    | { result: unknown }
    | { answer: 'approve' | 'deny'; reason?: string }
    | { output: unknown }
    | {
        model?: string;
        settings?: { temperature?: number; maxOutputTokens?: number; [name: string]: unknown };
        allAgents?: boolean;
      };
  model?: ModelChoice;
  preview?: boolean;
}

/** The answer to a previewed {@link ForkRunRequest} (200), and part of a started one's (202). */
export interface ForkPreview {
  /** The record it forks at, by name, and that record in a few words. */
  record: string;
  what: string;
  /** How many recorded calls and answers replay without a model call or a tool. */
  replayed: number;
  /** What runs live after the fork point, in words: tools with effects run, approvals are asked again. */
  live: string;
  /**
   * The JSON Schema the new value must fit, when there is one: a tool's output schema (the
   * workflow's capability map has it), a question's answer schema. A value that does not fit
   * is refused (`studio-fork-invalid`, naming the record and what does not fit).
   */
  schema?: Record<string, unknown>;
}

/** The answer to a started {@link ForkRunRequest} (202): the fork, an ordinary run of the runs folder. */
export interface ForkedRun extends ForkPreview {
  runId: string;
}

/** What a tried tool gave; the call is recorded as a run of its own. */
export interface TriedTool {
  runId: string;
  output?: unknown;
  /** The error's message when the tool failed or its approval was denied. */
  error?: string;
}

/** Sent on `/api/events` (`event: workflow`) when a workflow file or one of its imports changes. */
export interface WorkflowEvent {
  type: 'workflow';
  workflow: WorkflowEntry;
}

/** Sent on `/api/events` (`event: workflow-removed`) when a workflow file is deleted or no longer a workflow. */
export interface WorkflowRemovedEvent {
  type: 'workflow-removed';
  /** The removed workflow's id. */
  id: string;
}

/** One agent of a {@link CapabilityMap}. */
export type MapAgent = CapabilityMap['agents'][number];

/** One tool of a {@link MapAgent}. */
export type MapTool = MapAgent['tools'][number];
