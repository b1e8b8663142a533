import { resolve } from 'node:path';
import { Agent, Guard, Step } from '../components/index.js';
import { createElement, type Component, type JuneElement } from '../elements/index.js';
import { WorkflowError } from '../errors/index.js';
import { agentTool, type AgentTool } from '../interpreter/agent-tool.js';
import { runsFolderJournal } from '../host/runs-folder-journal.js';
import { scriptedModel, type ScriptedModel } from '../testing/index.js';
import type { RunConsumer } from '../events/index.js';
import type { Trace, TraceNode } from '../trace/index.js';
import type { CliIO } from './cli-io.js';
import { oneLine, toolInputRefusal } from './format.js';
import type { ExitCodeValue } from './exit-code.js';
import { loadWorkflow } from './load-workflow.js';
import { parseProps } from './parse-props.js';
import { followSession } from './follow-run.js';
import { runsFolder, startedSession } from './local-run-session.js';
import { checkRunIdFree } from './run-inputs.js';
import { isRunId } from '../engine/run-id.js';
import type { RunCommandOptions } from './run-command-options.js';

/** The options of {@link tryToolCommand}: `june try-tool`'s flags. */
export interface TryToolOptions {
  /** The agent's path, as `june inspect` shows it (`release > deployer`). */
  agent: string;
  /** The tool's name as that agent's model sees it. */
  tool: string;
  /** The tool's input, a JSON value. @default '{}' */
  input?: string;
  /** Props for the workflow's root component (they may change its tree), a JSON object. */
  props?: string;
  /** The run's id. @default a new one */
  runId?: string;
  /** How its approval, if it needs one, is answered (as `june run --approve`, but `wait`). */
  approve?: 'ask' | 'all' | 'none' | 'studio';
  /** `--approve-escalations`: `--approve all` or `none` answers a guard's escalation too. */
  approveEscalations?: boolean;
  json?: boolean;
}

/** The step of a tried tool's run, in its trace and journal. */
export const TRY_STEP = 'try';

/**
 * `june try-tool <file> --agent <path> --tool <name> --input <json>`: calls one tool of one
 * agent of a workflow, once, as that agent's scope resolves it for `--props` (wrappers
 * applied, so its approval rule holds: `--approve` answers it as for `june run`). The call is
 * a run of its own in `.june/runs` (its trace and journal), named `try <tool> · <file>`: one
 * agent named as the tried one, one step `try`, in which a scripted turn asks for the call and
 * a second one ends the step; the tool's output or error is its tool node's. Nothing resumes
 * such a run.
 *
 * @returns the exit code, as `june run`'s (a denied or failed call is in the trace: its tool node)
 * @throws {WorkflowError} `cli-option-invalid` when `--input` is not JSON or `--run-id` names a run the runs folder has; `cli-props-invalid`;
 *   `tool-try-unknown`, `tool-try-unsupported` (see `agentTool`); the workflow's load and tree
 *   errors.
 * @example
 * ```ts
 * await tryToolCommand('release.tsx', { agent: 'release', tool: 'deploy', input: '{"env":"staging"}', approve: 'all' }, processIO());
 * ```
 */
export async function tryToolCommand(
  file: string,
  options: TryToolOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const input = parseInput(options.input ?? '{}');
  const props = options.props === undefined ? undefined : parseProps(options.props);
  // a taken id is refused before anything is written (a bad one, by the run's journal)
  if (options.runId !== undefined && isRunId(options.runId))
    checkRunIdFree(runsFolder, options.runId, false);
  const workflow = await loadWorkflow(file);
  const found = await agentTool(workflow.component, {
    agent: options.agent,
    tool: options.tool,
    ...(props ? { props } : {}),
  });
  const runOptions: RunCommandOptions = {
    approve: options.approve ?? 'ask',
    ...(options.approveEscalations ? { approveEscalations: true } : {}),
    redactEnv: [],
    redactPattern: [],
    ...(options.runId !== undefined ? { runId: options.runId } : {}),
    ...(options.json ? { json: true } : {}),
  };
  const name = `try ${found.name} · ${workflow.name}`;
  const watch = triedCallWatch(found.name);
  const model = scriptedModel(
    {
      $comment: `june try-tool: one call of ${found.name}, asked for by ${resolve(file)}'s agent ${found.agent.path}`,
      steps: {
        [TRY_STEP]: [
          { toolCalls: [{ tool: found.name, input }] },
          { text: `Tried ${found.name}.` },
        ],
      },
    } as never,
    { name: 'try-tool' },
  );
  const inputs = {
    workflow: {
      ...workflow,
      component: tryComponent(found, model, watch.failure),
      name,
      label: name,
    },
    journal: runsFolderJournal(runsFolder),
    recorded: undefined,
    props: undefined,
    model: undefined,
    redact: undefined,
    prices: undefined,
    lease: undefined,
  };
  const tried = startedSession(file, runOptions, io, inputs, {
    resumable: false,
    // its turns are scripted: no model is called, nothing is spent
    usage: false,
    failedCall: (trace) => triedCallFailure(trace, found.name),
    consumer: watch.consumer,
  });
  return followSession(await tried, runOptions, io);
}

/**
 * Why the tried call of `tool` did not do its work, as a `june:` line: it failed (an input
 * its schema refuses, an error it threw) or a guard rejected it; undefined when it ran, or
 * was denied as `--approve` said.
 */
export function triedCallFailure(trace: Trace, tool: string): string | undefined {
  const call = toolNodeOf(trace.root, tool);
  if (!call) return undefined;
  const rejected = call.guards?.find((decision) => decision.action === 'reject');
  if (rejected) return rejectedText(tool, rejected);
  if (call.status !== 'failed') return undefined;
  return failedText(tool, call.error?.message ?? 'no message');
}

function rejectedText(tool: string, rejected: { guard: string; reason?: string }): string {
  return `june: the guard "${rejected.guard}" rejected the call of "${tool}"${rejected.reason ? `: ${rejected.reason}` : ''}; the tool did not run.`;
}

function failedText(tool: string, message: string): string {
  return `june: the call of "${tool}" failed: ${toolErrorText(message)}`;
}

/**
 * Watches the run's events for the tried call failing (its tool's error, a guard's
 * rejection): `failure()` says why, as {@link triedCallFailure} does, once it has.
 */
function triedCallWatch(tool: string): {
  consumer: RunConsumer;
  failure: () => string | undefined;
} {
  let failure: string | undefined;
  return {
    consumer: {
      event(event) {
        if (failure !== undefined || 'unstarted' in event) return;
        if (event.type === 'guard-decision' && event.action === 'reject' && event.tool === tool)
          failure = rejectedText(tool, event);
        else if (event.type === 'tool-error' && event.status === 'failed' && event.tool === tool)
          failure = failedText(tool, event.error.message);
      },
    },
    failure: () => failure,
  };
}

/** The tried call's tool node: the first of that name in the tree. */
function toolNodeOf(node: TraceNode, tool: string): TraceNode | undefined {
  if (node.kind === 'tool' && node.name === tool) return node;
  for (const child of node.children) {
    const found = toolNodeOf(child, tool);
    if (found) return found;
  }
  return undefined;
}

/** A tool's error as one line: an input its schema refuses as each issue, else its message. */
function toolErrorText(message: string): string {
  const refusal = toolInputRefusal(message);
  return refusal ? `${refusal}; fix --input and try again.` : oneLine(message);
}

/**
 * The one-agent tree that calls the tool: the agent's name, the tool alone, one step, under
 * the guards over the agent in the workflow (outermost first), each checking tool calls only:
 * a tried call is allowed, rejected, tripped or escalated as in a run, and the step's
 * scripted answer is no output for a guard to judge.
 */
function tryComponent(
  found: AgentTool,
  model: ScriptedModel,
  failure: () => string | undefined,
): Component {
  return function TryTool() {
    const agent = createElement(Agent, {
      name: found.agent.name,
      model,
      tools: { [found.name]: found.tool },
      instructions: `Call ${found.name} once.`,
      children: createElement(Step, {
        id: TRY_STEP,
        prompt: `Call ${found.name} (${found.source}) of ${found.agent.path}.`,
        // a call that did not do its work fails the try: its trace, `june runs`, its last line
        children: () => {
          const why = failure();
          if (why !== undefined) throw new WorkflowError('tool-try-failed', why);
          return null;
        },
      }),
    });
    return found.guards
      .filter((guard) => guard.on.has('tool-input'))
      .reduceRight<JuneElement>(
        (inside, guard) =>
          createElement(Guard, { ...guard.props, on: ['tool-input'], children: inside }),
        agent,
      );
  };
}

/** `--input`: any JSON value. @throws {WorkflowError} `cli-option-invalid` */
function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --input is not JSON (${(error as Error).message}); pass the tool's input as JSON, e.g. --input '{"env":"staging"}'.`,
      { cause: error },
    );
  }
}
