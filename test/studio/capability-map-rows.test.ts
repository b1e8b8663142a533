import { describe, expect, it } from 'vitest';
import type { CapabilityMap } from '../../src/workflows/workbench-api.js';
import { connectedTools } from '../../studio/src/connected-tools.js';
import { mapRows, provenanceBadges } from '../../studio/src/map-rows.js';
import type { TraceNode } from '../../src/trace/trace-node.js';

// How the capability map lays out inspect()'s report: agents nested by their path, tools and
// tool sources under their agent, a composite body's agents under its tool.

const map: CapabilityMap = {
  agents: [
    {
      path: 'lead',
      name: 'lead',
      tools: [
        {
          name: 'research',
          needsApproval: false,
          source: '<Tool name="research">',
          composite: true,
        },
        {
          name: 'gh_close',
          needsApproval: true,
          source: '<Tool name="close"> in <RequireApproval> in <Namespace name="gh"> in <Files>',
        },
      ],
      toolSources: ['<MCPServer name="docs">'],
    },
    {
      path: 'lead > writer',
      name: 'writer',
      tools: [
        {
          name: 'gh_close',
          needsApproval: true,
          source: '<Inherit capabilities={["gh_close"]}>',
          granted: '<Tool name="close"> in the enclosing <Agent>',
        },
      ],
    },
    {
      path: 'research:agent',
      name: 'agent',
      tools: [{ name: 'search', needsApproval: 'dynamic', source: 'tools={{ search }}' }],
    },
  ],
};

describe('mapRows', () => {
  it('nests agents by path, puts a composite body under its tool, and lists tool sources', () => {
    expect(
      mapRows(map).map((row) => [
        row.kind,
        row.depth,
        row.kind === 'tool' ? row.tool.name : row.kind === 'source' ? row.source : row.agent.path,
      ]),
    ).toEqual([
      ['agent', 0, 'lead'],
      ['tool', 1, 'research'],
      ['agent', 2, 'research:agent'],
      ['tool', 3, 'search'],
      ['tool', 1, 'gh_close'],
      ['source', 1, '<MCPServer name="docs">'],
      ['agent', 1, 'lead > writer'],
      ['tool', 2, 'gh_close'],
    ]);
  });

  it('keeps apart the agents of <Parallel> branches that share a path, each under its own parent', () => {
    const tool = { name: 'read', needsApproval: false, source: '<Tool name="read">' };
    const rows = mapRows({
      agents: [
        { path: 'lead', name: 'lead', tools: [] },
        { path: 'lead > reviewer', name: 'reviewer', tools: [tool], branch: 'a.ts' },
        { path: 'lead > reviewer > helper', name: 'helper', tools: [], branch: 'a.ts' },
        { path: 'lead > reviewer', name: 'reviewer', tools: [tool], branch: 'b.ts' },
      ],
    });
    expect(rows.map((row) => [row.kind, row.depth, row.key])).toEqual([
      ['agent', 0, 'a:lead'],
      ['agent', 1, 'a:lead > reviewer [a.ts]'],
      ['tool', 2, 't:lead > reviewer [a.ts]:read'],
      ['agent', 2, 'a:lead > reviewer > helper [a.ts]'],
      ['agent', 1, 'a:lead > reviewer [b.ts]'],
      ['tool', 2, 't:lead > reviewer [b.ts]:read'],
    ]);
  });

  it('puts the tools a run connected from a tool source under it', () => {
    const at = '2026-12-01T00:00:00.000Z';
    const agent = (name: string, capabilities: object[], children: TraceNode[] = []) =>
      ({
        id: name,
        kind: 'agent',
        name,
        status: 'succeeded',
        startedAt: at,
        capabilities,
        children,
      }) as TraceNode;
    const root = {
      id: 'r',
      kind: 'run',
      name: 'flow.tsx',
      status: 'succeeded',
      startedAt: at,
      children: [
        agent('lead', [
          { name: 'docs_read', source: '<MCPServer name="docs">' },
          { name: 'docs_list', source: '<MCPServer name="docs">' },
          { name: 'gh_close', source: '<Tool name="close">' },
        ]),
      ],
    } as TraceNode;
    const rows = mapRows(map, connectedTools(root));
    const source = rows.findIndex((row) => row.kind === 'source');
    expect(
      rows
        .slice(source, source + 3)
        .map((row) => [row.kind, row.depth, row.kind === 'connected' ? row.name : '']),
    ).toEqual([
      ['source', 1, ''],
      ['connected', 2, 'docs_read'],
      ['connected', 2, 'docs_list'],
    ]);
  });

  it("reads each tool's provenance into badges", () => {
    const [lead, writer, body] = map.agents;
    expect(provenanceBadges(lead!.tools[1]!).map((badge) => badge.label)).toEqual([
      'approval (<RequireApproval>)',
      'namespace gh',
      'bundle Files',
    ]);
    expect(provenanceBadges(lead!.tools[0]!).map((badge) => badge.label)).toEqual(['composite']);
    expect(provenanceBadges(writer!.tools[0]!).map((badge) => badge.label)).toEqual([
      'approval',
      'inherited',
    ]);
    expect(provenanceBadges(body!.tools[0]!).map((badge) => badge.label)).toEqual([
      'approval decided per call',
      'tools prop',
    ]);
  });

  it('shows the guards that check a tool, outermost first, each with its declaration', () => {
    const badges = provenanceBadges({
      name: 'deploy',
      needsApproval: true,
      source: '<Tool name="deploy">',
      guards: ['<Guard name="policy">', '<Guard name="no-prod">'],
    });
    expect(badges.map((badge) => [badge.kind, badge.label, badge.title])).toEqual([
      ['approval', 'approval', undefined],
      ['guard', 'guard policy', '<Guard name="policy"> checks every call'],
      ['guard', 'guard no-prod', '<Guard name="no-prod"> checks every call'],
    ]);
  });

  it('shows the budgets that cap the steps calling a tool, after its guards', () => {
    const badges = provenanceBadges({
      name: 'researcher',
      needsApproval: false,
      source: '<researcher>',
      composite: true,
      guards: ['<Guard name="policy">'],
      budgets: ['<Budget name="research" tokens={1500}>'],
    });
    expect(badges.map((badge) => [badge.kind, badge.label, badge.title])).toEqual([
      ['guard', 'guard policy', '<Guard name="policy"> checks every call'],
      [
        'budget',
        'budget research',
        '<Budget name="research" tokens={1500}> caps the model calls of the steps that call it',
      ],
      ['composite', 'composite', undefined],
    ]);
  });
});
