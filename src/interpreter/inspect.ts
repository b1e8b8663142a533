import type { Component, JuneElement } from '../elements/element.js';
import { createElement, isElement } from '../elements/element.js';
import { isReactElement, reactElementError } from '../elements/jsx-setup.js';
import { approvalFlag } from '../capabilities/scope.js';
import type { CapabilityProvenance } from '../capabilities/scope.js';
import { WorkflowError } from '../errors/june-error.js';
import { openNode } from '../trace/trace-builder.js';
import { evaluate } from './evaluate.js';
import { createRunFrame, RunRoot } from './run-state.js';

/** One tool of an inspected agent: its name, whether it waits for approval, and where it came from. */
export interface InspectedTool {
  name: string;
  /** `true`, `false`, or `"dynamic"` when a function decides per call. */
  needsApproval: boolean | 'dynamic';
  /** As in the trace's `capabilities`; for a `tools` prop entry: `tools={{ name }}`. */
  source: string;
  granted?: string;
  composite?: true;
}

/** One agent the tree renders, with its resolved tools. */
export interface InspectedAgent {
  /** The agent's name and those of the agents around it, joined by ` > ` (`agent > agent`). */
  path: string;
  name: string;
  tools: InspectedTool[];
  /**
   * Tool sources (`defineToolSource`, `defineMCPServer`) the agent declares: their tools are
   * known only once a run connects, so `inspect()` lists the declarations instead.
   */
  toolSources?: string[];
}

/** What {@link inspect} returns: plain data, made for `toMatchSnapshot()`. */
export interface InspectReport {
  agents: InspectedAgent[];
}

/**
 * Resolves the capabilities of every agent the tree renders, without calling a model: your
 * components render, steps are checked but not run, and a step's render-prop child is not
 * followed (it needs the step's result).
 *
 * @throws {WorkflowError} every tree and capability error a run would throw before its first model call.
 * @example
 * ```tsx
 * test('release scope', async () => {
 *   expect(await inspect(<Release />)).toMatchSnapshot();
 * });
 * ```
 */
export async function inspect(workflow: JuneElement | Component, options: { props?: Record<string, unknown> } = {}): Promise<InspectReport> {
  const element = typeof workflow === 'function' ? createElement(workflow, { ...(options.props ?? {}) }) : workflow;
  if (isReactElement(element)) throw reactElementError(element);
  if (!isElement(element)) throw new WorkflowError('run-workflow-invalid', 'june: inspect() takes an element such as <Workflow /> or a component.');
  const root = new RunRoot('inspect', 'inspect', undefined, undefined);
  const frame = createRunFrame(root, 'inspect', [], root.controller.signal, openNode('run', 'inspect'));
  await evaluate(element, { run: frame, parentTrace: frame.trace });
  return {
    agents: root.agents.map((agent) => ({
      path: agent.path,
      name: agent.name,
      tools: [...agent.scope.byName.values()].map((entry) => tool(entry.provenance, approvalFlag(entry.tool))),
      ...(agent.waiting ? { toolSources: agent.waiting } : {}),
    })),
  };
}

function tool(provenance: CapabilityProvenance, needsApproval: boolean | 'dynamic'): InspectedTool {
  return { name: provenance.name, needsApproval, source: provenance.source, ...(provenance.granted ? { granted: provenance.granted } : {}), ...(provenance.composite ? { composite: true } : {}) };
}
