import type { TraceNode } from '../../src/trace/trace-node.js';

/** The tools a run found in an agent's tool sources, by agent path and source (see {@link connectedTools}). */
export type ConnectedTools = ReadonlyMap<string, string[]>;

/** The key of one agent's tool source in {@link ConnectedTools}. */
export const connectedKey = (agentPath: string, source: string) => `${agentPath}\n${source}`;

/**
 * What a run connected: for each agent of the run (its path, names joined by ` > ` as
 * `inspect()` writes them) and each tool source it declares (an MCP server...), the names of
 * the tools the run's agent got from it, as its trace node's `capabilities` recorded them.
 * `inspect()` does not connect tool sources; a run does, so the map shows their tools from the
 * workflow's last run. Child runs of composite tools are not looked into.
 */
export function connectedTools(root: TraceNode): ConnectedTools {
  const found = new Map<string, string[]>();
  const visit = (node: TraceNode, path: string) => {
    const here = node.kind === 'agent' ? (path ? `${path} > ${node.name}` : node.name) : path;
    for (const capability of node.kind === 'agent' ? (node.capabilities ?? []) : []) {
      const key = connectedKey(here, capability.source);
      found.set(key, [...(found.get(key) ?? []), capability.name]);
    }
    for (const child of node.children) if (child.kind !== 'run') visit(child, here);
  };
  visit(root, '');
  return found;
}
