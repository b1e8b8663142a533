import { connectedKey, type ConnectedTools } from './connected-tools.js';
import type {
  CapabilityMap,
  MapAgent as InspectedAgent,
  MapTool as InspectedTool,
} from '../../src/workflows/workbench-api.js';

/** One row of the capability map: an agent, one of its tools, or a tool source not yet connected. */
export type MapRow =
  | { kind: 'agent'; key: string; depth: number; agent: InspectedAgent }
  | { kind: 'tool'; key: string; depth: number; agent: InspectedAgent; tool: InspectedTool }
  | { kind: 'source'; key: string; depth: number; agent: InspectedAgent; source: string }
  | {
      kind: 'connected';
      key: string;
      depth: number;
      agent: InspectedAgent;
      source: string;
      name: string;
    };

/**
 * The map's rows, in the JSX's order: each agent, then its tools and tool sources one level
 * in, then the agents nested in it (by `path`: `release > helper` sits in `release`). Agents
 * inside a composite tool's body (`research:agent`, reported when `inspect()` looked into it)
 * follow the composite tool that opens into them; under a tool source, the tools a run
 * connected from it (`connected`, from the workflow's last run). Nothing is resolved here: it
 * is `inspect()`'s report, laid out.
 */
export function mapRows(map: CapabilityMap, connected: ConnectedTools = new Map()): MapRow[] {
  const rows: MapRow[] = [];
  const byParent = new Map<string, InspectedAgent[]>();
  const ids = new Set(map.agents.map(idOf));
  for (const agent of map.agents) {
    const parent = parentIdOf(agent, ids);
    byParent.set(parent, [...(byParent.get(parent) ?? []), agent]);
  }
  const visit = (agent: InspectedAgent, depth: number) => {
    const id = idOf(agent);
    rows.push({ kind: 'agent', key: `a:${id}`, depth, agent });
    for (const tool of agent.tools) {
      rows.push({
        kind: 'tool',
        key: `t:${id}:${tool.name}`,
        depth: depth + 1,
        agent,
        tool,
      });
      if (tool.composite)
        for (const inner of byParent.get(`${tool.name}:`) ?? []) visit(inner, depth + 2);
    }
    for (const source of agent.toolSources ?? []) {
      rows.push({
        kind: 'source',
        key: `s:${id}:${source}`,
        depth: depth + 1,
        agent,
        source,
      });
      for (const name of connected.get(connectedKey(agent.path, source)) ?? []) {
        const key = `c:${id}:${name}`;
        rows.push({ kind: 'connected', key, depth: depth + 2, agent, source, name });
      }
    }
    for (const child of byParent.get(id) ?? []) visit(child, depth + 1);
  };
  for (const agent of byParent.get('') ?? []) visit(agent, 0);
  const placed = new Set(rows.filter((row) => row.kind === 'agent').map((row) => idOf(row.agent)));
  for (const agent of map.agents) if (!placed.has(idOf(agent))) visit(agent, 0); // a body whose tool is not in view
  return rows;
}

/** An agent's identity on the map: its path, and the `<Parallel>` branch it runs in (`reviewer [a]`). */
function idOf(agent: InspectedAgent): string {
  return agent.branch === undefined ? agent.path : `${agent.path} [${agent.branch}]`;
}

/**
 * The identity of the agent (or composite tool) `agent` sits in: its parent path in the
 * innermost of its branches that has such an agent (an agent around a `<Parallel>` is in
 * none of them).
 */
function parentIdOf(agent: InspectedAgent, ids: Set<string>): string {
  const parent = parentOf(agent.path);
  if (parent === '' || parent.endsWith(':')) return parent;
  const keys = agent.branch?.split(' > ') ?? [];
  for (let n = keys.length; n > 0; n--) {
    const id = `${parent} [${keys.slice(0, n).join(' > ')}]`;
    if (ids.has(id)) return id;
  }
  return parent;
}

/**
 * The agent an agent sits in: the path before its last ` > `; for the outermost agent of a
 * composite body (`research:agent`), `research:` (the tool); `''` at the top.
 */
function parentOf(path: string): string {
  const cut = path.lastIndexOf(' > ');
  if (cut >= 0) return path.slice(0, cut);
  const colon = path.lastIndexOf(':');
  return colon >= 0 ? `${path.slice(0, colon).split(':').at(-1)}:` : '';
}

/** A kind of provenance a tool shows as a badge. */
export interface ProvenanceBadge {
  kind:
    | 'approval'
    | 'dynamic'
    | 'guard'
    | 'budget'
    | 'namespace'
    | 'bundle'
    | 'inherit'
    | 'composite'
    | 'prop'
    | 'wrapper';
  label: string;
  /** More about it, shown on hover: a guard's declaration. */
  title?: string;
}

/**
 * What a tool's provenance says, as badges: whether it needs approval (and whether through
 * `<RequireApproval>`), the `<Guard>`s that check its calls, the namespaces and bundles it came through, an `<Inherit>` grant, a
 * composite tool (or defined agent), a `tools` prop entry. Read from the report's `source`
 * and `granted` notation (`<Tool name="close"> in <RequireApproval> in <Namespace name="github">`).
 */
export function provenanceBadges(tool: InspectedTool): ProvenanceBadge[] {
  const badges: ProvenanceBadge[] = [];
  const chain = [tool.source, tool.granted ?? ''].join(' in ');
  if (tool.needsApproval === true)
    badges.push({
      kind: 'approval',
      label: chain.includes('<RequireApproval>') ? 'approval (<RequireApproval>)' : 'approval',
    });
  if (tool.needsApproval === 'dynamic')
    badges.push({ kind: 'dynamic', label: 'approval decided per call' });
  // the guards over the agent check every call of the tool, outermost first
  for (const guard of tool.guards ?? [])
    badges.push({
      kind: 'guard',
      label: `guard ${/name="([^"]+)"/.exec(guard)?.[1] ?? guard}`,
      title: `${guard} checks every call`,
    });
  // the budgets over the agent cap the model calls of the steps that call it, outermost first
  for (const budget of tool.budgets ?? [])
    badges.push({
      kind: 'budget',
      label: `budget ${/name="([^"]+)"/.exec(budget)?.[1] ?? 'budget'}`,
      title: `${budget} caps the model calls of the steps that call it`,
    });
  if (tool.granted !== undefined) badges.push({ kind: 'inherit', label: 'inherited' });
  if (tool.composite) badges.push({ kind: 'composite', label: 'composite' });
  if (tool.source.startsWith('tools={{')) badges.push({ kind: 'prop', label: 'tools prop' });
  for (const [, name] of chain.matchAll(/<Namespace name="([^"]+)">/g))
    badges.push({ kind: 'namespace', label: `namespace ${name}` });
  for (const [, name] of chain.matchAll(/ in <([A-Z][\w.]*)>/g))
    if (name !== 'RequireApproval' && name !== 'Agent')
      badges.push({ kind: 'bundle', label: `bundle ${name}` });
  return badges;
}
