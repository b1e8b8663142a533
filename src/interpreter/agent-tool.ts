import type { Tool } from 'ai';
import type { Component } from '../elements/element.js';
import { createElement } from '../elements/element.js';
import { WorkflowError } from '../errors/june-error.js';
import { evaluate } from './evaluate.js';
import { guardsIn, type GuardEntry } from './guard-entry.js';
import { InspectPass } from './inspect-pass.js';
import { createRunFrame } from './run-state.js';

/** One resolved tool of one agent, from {@link agentTool}. */
export interface AgentTool {
  /** The agent's `path` (`release > deployer`) and name. */
  agent: { path: string; name: string };
  /** The tool's name, as the agent's model sees it. */
  name: string;
  /** The tool as the agent's scope resolved it: wrappers applied (`needsApproval` included). */
  tool: Tool;
  /** Where it came from, as the trace's `capabilities` say it (`from <Tool name="deploy">`). */
  source: string;
  /** The `<Guard>`s over the agent, outermost first: they check the tool's calls. */
  guards: readonly GuardEntry[];
}

/**
 * Resolves the tree as `inspect()` does (components render, capabilities resolve, no model
 * is called) and returns one tool of one agent, as that agent's scope holds it, with the
 * guards over that agent: what `june try-tool` calls on its own. A composite tool or a tool of a tool source (an MCP
 * server) is refused: the first runs a workflow of its own, the second is known only once a
 * run connects.
 *
 * @param options.agent - the agent's `path` in `inspect()`'s report (`release > deployer`).
 * @param options.tool - the tool's name as that agent's model sees it.
 * @throws {WorkflowError} `tool-try-unknown` when no agent has that path or the agent no such
 *   tool; `tool-try-unsupported` for a composite tool or a tool source's tool; every tree and
 *   capability error `inspect()` throws.
 * @example
 * ```ts
 * const found = await agentTool(Release, { agent: 'release', tool: 'deploy' });
 * ```
 */
export async function agentTool(
  workflow: Component,
  options: { agent: string; tool: string; props?: Record<string, unknown> },
): Promise<AgentTool> {
  const pass = new InspectPass();
  const frame = createRunFrame({ pass, runId: 'inspect', prefix: [], signal: pass.signal });
  await evaluate(createElement(workflow, { ...(options.props ?? {}) }), {
    run: frame,
    parentId: frame.nodeId,
  });
  const agent = pass.agents.find((found) => found.path === options.agent);
  if (!agent) {
    const paths = pass.agents.map((found) => JSON.stringify(found.path)).join(', ');
    throw new WorkflowError(
      'tool-try-unknown',
      `june: no agent at the path ${JSON.stringify(options.agent)} in this workflow; its agents are ${paths || 'none'}.`,
    );
  }
  const entry = agent.scope.byName.get(options.tool);
  if (!entry) {
    const names = [...agent.scope.byName.keys()].map((name) => JSON.stringify(name)).join(', ');
    const sources = agent.waiting?.length
      ? ` (the tools of ${agent.waiting.join(', ')} are known only once a run connects, and cannot be tried alone)`
      : '';
    throw new WorkflowError(
      'tool-try-unknown',
      `june: the agent ${JSON.stringify(options.agent)} has no tool ${JSON.stringify(options.tool)}; its tools are ${names || 'none'}${sources}.`,
    );
  }
  if (entry.provenance.composite)
    throw new WorkflowError(
      'tool-try-unsupported',
      `june: the tool ${JSON.stringify(options.tool)} of ${JSON.stringify(options.agent)} is a composite tool (${entry.provenance.source}): it runs a workflow of its own, so try it by running the workflow.`,
    );
  return {
    agent: { path: agent.path, name: agent.name },
    name: options.tool,
    tool: entry.tool as Tool,
    source: entry.provenance.source,
    guards: guardsIn(agent.guards ?? []),
  };
}
