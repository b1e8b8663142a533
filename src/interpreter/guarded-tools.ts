import type { TextStreamPart, ToolSet } from 'ai';
import { mapExecutes } from '../capabilities/map-executes.js';
import type { GuardSubject } from '../components/guard.js';
import type { DurablePlace } from '../engine/durable-engine.js';
import type { StepToolApproval } from '../engine/tool-approval.js';
import type { GuardEscalation } from '../approvals/approval-request.js';
import { decideGuards, type GuardRecord, type GuardVerdict } from './guard-decide.js';
import type { PolicyEntry } from './guard-entry.js';
import { tripRun } from './guard-trip.js';
import type { NodePlace } from './node-place.js';
import type { RunFrame } from './run-state.js';
import type { RunServices } from './run-services.js';
import type { ToolNodes } from './tool-nodes.js';
import { stableJson } from '../json/stable-json.js';
import { plainJson } from '../json/json-form.js';

const GUARDS = Symbol.for('june.guards');

/**
 * The guards a composite tool's `execute` was called under (the calling step's), which its
 * child run inherits; `undefined` for a call that no guard covers.
 */
export function callGuards(options: unknown): readonly PolicyEntry[] | undefined {
  return (options as Record<symbol, readonly PolicyEntry[] | undefined> | undefined)?.[GUARDS];
}

/**
 * `tools` whose executions are handed `policies` (the guards and budgets over the calling
 * step), so a composite tool's child run is covered by them; unchanged without policies.
 */
export function withPolicies(tools: ToolSet, policies: readonly PolicyEntry[]): ToolSet {
  if (policies.length === 0) return tools;
  return mapExecutes(
    tools,
    (execute) => (input, options) =>
      execute(input, { ...options, [GUARDS]: policies } as typeof options),
  );
}

/** What {@link StepGuards} needs of the step it guards. */
export interface GuardedStep {
  services: RunServices;
  run: RunFrame;
  /** The step path. */
  step: string;
  /** The agent's path. */
  agent: string;
  /** The step's trace node. */
  stepNode: string;
  place: DurablePlace;
  tools: ToolNodes;
}

/**
 * The guards over one step's tool calls. Each call is decided once, when the AI SDK asks
 * whether it needs approval (before it runs): `escalate` makes it wait for approval,
 * `trip` fails the run, `reject` lets it "run" as the rejection the model reads, `allow`
 * leaves the call to its own approval (a guard never removes one). The decisions show on the
 * call's node once its `tool-call` part came ({@link called}).
 *
 * @example
 * ```ts
 * const guarded = new StepGuards(guards, { services, run, step, agent, place, tools });
 * const stepTools = durable.tools(guarded.tools(agent.tools), place, addUsage);
 * const toolApproval = guarded.approval(durable.toolApproval(stepTools, place), stepTools);
 * ```
 */
export class StepGuards {
  readonly #verdicts = new Map<string, Promise<GuardVerdict>>();
  readonly #settled = new Map<string, GuardVerdict>();
  /** Tool call nodes by call, once their `tool-call` part came. */
  readonly #nodes = new Map<string, NodePlace>();
  readonly #shown = new Set<string>();

  constructor(
    readonly guards: readonly PolicyEntry[],
    private readonly at: GuardedStep,
  ) {}

  /** The verdict on one tool call, decided once. */
  verdict(toolCallId: string, tool: string, input: unknown): Promise<GuardVerdict> {
    const key = this.#key(toolCallId, tool, input);
    let verdict = this.#verdicts.get(key);
    if (!verdict) {
      const { services, run, place, step, agent } = this.at;
      const durable = services.engine.durable;
      const call = durable
        ? durable.callId(place, toolCallId)
        : `${step.slice(step.lastIndexOf(':') + 1)}#${toolCallId}`;
      // a copy as plain JSON: a guard cannot change the input the tool runs with
      const subject: GuardSubject = {
        kind: 'tool-input',
        step,
        agent,
        tool,
        input: plainJson(input),
      };
      verdict = decideGuards(this.guards, subject, {
        services,
        run,
        place,
        call: `${call}~guards`,
        toolCallId,
        signal: run.signal,
        stepNode: this.at.stepNode,
      }).then((decided) => {
        this.#settled.set(key, decided);
        this.#show(key, tool, toolCallId);
        if (decided.action === 'trip') {
          // the decision shows on the call even when its part has not come
          if (!this.#shown.has(key)) this.#nodes.set(key, this.at.tools.find(toolCallId, tool));
          this.#show(key, tool, toolCallId);
          throw tripRun(services, decided, subject);
        }
        return decided;
      });
      this.#verdicts.set(key, verdict);
    }
    return verdict;
  }

  /** The `tool-call` part of a call came: its decisions show on its node. */
  called(toolCallId: string, tool: string, input: unknown, node: NodePlace): void {
    const key = this.#key(toolCallId, tool, input);
    if (!this.#nodes.has(key)) this.#nodes.set(key, node);
    this.#show(key, tool, toolCallId);
  }

  /** A step's part handler that also tells these guards of each `tool-call` part. */
  parts(onPart: (part: TextStreamPart<ToolSet>) => void): (part: TextStreamPart<ToolSet>) => void {
    return (part) => {
      onPart(part);
      if (part.type === 'tool-call')
        this.called(
          part.toolCallId,
          part.toolName,
          part.input,
          this.at.tools.find(part.toolCallId, part.toolName),
        );
    };
  }

  /** The guard that escalated the call, with its reason, for its approval request. */
  escalation(toolCallId: string, tool: string, input: unknown): GuardEscalation | undefined {
    const verdict = this.#settled.get(this.#key(toolCallId, tool, input));
    if (verdict?.action !== 'escalate' || !verdict.guard) return undefined;
    return {
      name: verdict.guard.name,
      declaration: verdict.guard.declaration,
      ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
    };
  }

  /**
   * The step's `toolApproval` with the guards deciding first: an escalated call waits for
   * approval, a rejected one runs as its rejection without asking anyone, a tripped one
   * fails the run; an allowed call is left to `inner` (the tool's own approval).
   */
  approval(inner: StepToolApproval, tools: ToolSet): StepToolApproval {
    return async (options) => {
      const { toolCallId, toolName, input } = options.toolCall;
      const tool = Object.hasOwn(tools, toolName) ? tools[toolName] : undefined;
      if (tool?.execute === undefined) return inner(options);
      const verdict = await this.verdict(toolCallId, toolName, input);
      if (verdict.action === 'escalate') return 'user-approval';
      if (verdict.action === 'reject') return undefined;
      return inner(options);
    };
  }

  /**
   * The step's tools with the guards applied where each runs: a rejected call returns the
   * rejection (the model reads it as the tool's result) and never runs; an allowed one runs
   * with the guards handed on, so a composite tool's child run is guarded too.
   */
  tools(tools: ToolSet): ToolSet {
    return mapExecutes(tools, (execute, name) => (input, options) => {
      const run = (verdict: GuardVerdict) =>
        verdict.action === 'reject'
          ? rejection(verdict)
          : execute(input, { ...options, [GUARDS]: this.guards } as typeof options);
      const settled = this.#settled.get(this.#key(options.toolCallId, name, input));
      if (settled) return run(settled);
      return this.verdict(options.toolCallId, name, input).then(run) as ReturnType<typeof execute>;
    });
  }

  /**
   * Which call a verdict is for. With a durable engine, its call id (the same for every
   * look at one call, whatever its input became: an approval's edit is not decided again,
   * and the record stays the one it was); without one, the provider's id, the tool and the
   * input, as providers may give two calls of one step the same id.
   */
  #key(toolCallId: string, tool: string, input: unknown): string {
    const durable = this.at.services.engine.durable;
    if (durable) return durable.callId(this.at.place, toolCallId);
    return `${toolCallId}\u0000${tool}\u0000${stableJson(input ?? null)}`;
  }

  #show(key: string, tool: string, toolCallId: string): void {
    const verdict = this.#settled.get(key);
    const node = this.#nodes.get(key);
    if (!verdict || !node || this.#shown.has(key)) return;
    this.#shown.add(key);
    showDecisions(this.at, verdict, node, { tool, toolCallId });
  }
}

/** What the model reads for a call a guard rejected. */
export function rejection(verdict: GuardVerdict): string {
  const name = verdict.guard ? `the guard "${verdict.guard.name}"` : 'a guard';
  return `june: ${name} rejected this call: ${verdict.reason ?? 'no reason given'}`;
}

/** One `guard-decision` event per decision of `verdict`, at `node`. */
export function showDecisions(
  at: Pick<GuardedStep, 'services' | 'run' | 'step'>,
  verdict: GuardVerdict,
  node: NodePlace,
  call?: { tool: string; toolCallId: string },
): void {
  for (const record of verdict.records)
    at.services.log.emit({
      type: 'guard-decision',
      runId: at.run.runId,
      step: at.step,
      ...(call ?? {}),
      ...decisionFields(record),
      ...(verdict.replayed ? { replayed: true as const } : {}),
      ...node,
    });
}

function decisionFields(record: GuardRecord) {
  return {
    guard: record.guard,
    declaration: record.declaration,
    check: record.check,
    action: record.action,
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    ...(record.usage !== undefined ? { usage: record.usage } : {}),
    ...(record.costUsd !== undefined ? { costUsd: record.costUsd } : {}),
  };
}
