import { useVirtualizer } from '@tanstack/react-virtual';
type RowStyle = Record<string, string>;
import { useMemo, useRef } from 'preact/hooks';

import type {
  CapabilityMap as MapData,
  MapAgent as InspectedAgent,
  MapTool as InspectedTool,
} from '../../src/workflows/workbench-api.js';
import type { ConnectedTools } from './connected-tools.js';
import { mapRows, provenanceBadges, type MapRow } from './map-rows.js';

/** The height of one row of the map, in px (fixed, so a map of any size is a virtual list). */
const MAP_ROW_HEIGHT = 30;

/**
 * Why a composite tool has no Try button: one call of it is a run of its body's agents,
 * whose models need a script or a provider, which calling one tool does not give.
 */
export const NO_TRY_COMPOSITE =
  "A composite tool's call runs the agents of its body, so it is tried by starting a run of the workflow; its inner tools have Try buttons.";

/** What the Try button of a tool hands on: enough to build its input form and call it. */
export interface TryToolTarget {
  workflowId: string;
  /** The agent's `path` in the map (`release > helper`). */
  agent: string;
  /** The tool's name as that agent's model sees it. */
  tool: string;
  inputSchema?: Record<string, unknown>;
}

export interface CapabilityMapProps {
  workflowId: string;
  map: MapData;
  /** The project root, to link declarations to files (`vscode://file/...`). */
  root?: string;
  /** Called by a tool's Try button; without it the buttons are disabled. */
  onTryTool?(target: TryToolTarget): void;
  /** The tools the workflow's last run connected from its tool sources (MCP servers...). */
  connected?: ConnectedTools;
  /** That run, named beside those tools. */
  connectedRun?: string;
}

/**
 * Who can do what in a workflow, before any run: its agents nested as in the JSX, each with
 * the tools its model can call and where each came from (namespace, bundle,
 * `<RequireApproval>`, an `<Inherit>` grant, a composite tool or defined agent and the
 * agents of its body when inspected, tool sources such as MCP servers), every tool that
 * needs approval marked, each linked to its declaration. It draws `inspect()`'s report
 * (`mapRows`) as a virtual list, so 200 tools cost what the rows in view cost.
 */
export function CapabilityMap(props: CapabilityMapProps) {
  const { workflowId, map, root, onTryTool, connected, connectedRun } = props;
  const rows = useMemo(() => mapRows(map, connected), [map, connected]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => MAP_ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 0, height: 600 },
  });
  const approvals = rows.filter(
    (row) => row.kind === 'tool' && row.tool.needsApproval !== false,
  ).length;
  const tools = rows.filter((row) => row.kind === 'tool').length;
  return (
    <section class="map" data-testid="capability-map" data-rows={rows.length}>
      <p class="map-summary muted">
        {map.agents.length} agent{map.agents.length === 1 ? '' : 's'}, {tools} tool
        {tools === 1 ? '' : 's'}
        {approvals > 0 && (
          <>
            , <span class="map-approval-count">{approvals} need approval</span>
          </>
        )}
      </p>
      <div ref={scroller} class="map-scroll" role="tree" aria-label="Capability map">
        <div class="map-space" style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {virtualizer.getVirtualItems().map((item) => (
            <MapRowView
              key={rows[item.index]!.key}
              row={rows[item.index]!}
              top={item.start}
              workflowId={workflowId}
              root={root}
              onTryTool={onTryTool}
              connectedRun={connectedRun}
            />
          ))}
        </div>
      </div>
    </section>
  );
}

function MapRowView(props: {
  row: MapRow;
  top: number;
  workflowId: string;
  root: string | undefined;
  onTryTool: CapabilityMapProps['onTryTool'];
  connectedRun: string | undefined;
}) {
  const { row, top } = props;
  const style: RowStyle = {
    top: `${top}px`,
    height: `${MAP_ROW_HEIGHT}px`,
    paddingLeft: `${8 + row.depth * 20}px`,
  };
  if (row.kind === 'agent') return <AgentRow agent={row.agent} style={style} root={props.root} />;
  if (row.kind === 'source')
    return (
      <div class="map-row map-source" role="treeitem" style={style} data-source={row.source}>
        <span class="map-kind">source</span>
        <span class="mono">{row.source}</span>
        <span class="muted small">its tools are known once a run connects</span>
      </div>
    );
  if (row.kind === 'connected')
    return (
      <div
        class="map-row map-tool map-connected"
        role="treeitem"
        style={style}
        data-tool={row.name}
        data-agent={row.agent.path}
        data-source={row.source}
      >
        <span class="mono map-tool-name">{row.name}</span>
        <span class="map-badge map-badge-connected">connected</span>
        <span class="mono small muted map-source-text">
          from {row.source} in run {props.connectedRun}
        </span>
      </div>
    );
  return <ToolRow {...props} agent={row.agent} tool={row.tool} style={style} />;
}

function AgentRow({
  agent,
  style,
  root,
}: {
  agent: InspectedAgent;
  style: RowStyle;
  root?: string;
}) {
  return (
    <div class="map-row map-agent" role="treeitem" style={style} data-agent={agent.path}>
      <span class="map-kind">agent</span>
      <strong>{agent.name}</strong>
      {agent.branch !== undefined && (
        <span class="map-badge map-badge-branch" data-branch={agent.branch}>
          branch {agent.branch}
        </span>
      )}
      <span class="muted small">
        {agent.tools.length} tool{agent.tools.length === 1 ? '' : 's'}
      </span>
      <Declaration at={agent.declaration} root={root} />
    </div>
  );
}

function ToolRow(props: {
  agent: InspectedAgent;
  tool: InspectedTool;
  style: RowStyle;
  workflowId: string;
  root: string | undefined;
  onTryTool: CapabilityMapProps['onTryTool'];
}) {
  const { agent, tool, style, workflowId, root, onTryTool } = props;
  const needsApproval = tool.needsApproval !== false;
  return (
    <div
      class={`map-row map-tool${needsApproval ? ' map-needs-approval' : ''}`}
      role="treeitem"
      style={style}
      data-tool={tool.name}
      data-agent={agent.path}
      data-approval={String(tool.needsApproval)}
    >
      <span class="mono map-tool-name">{tool.name}</span>
      <Badges tool={tool} />
      <span class="mono small muted map-source-text" title={tool.granted ?? tool.source}>
        {tool.granted ? `${tool.granted}, through ${tool.source}` : tool.source}
      </span>
      <Declaration at={tool.declaration} root={root} />
      {tool.composite ? (
        <span class="map-no-try muted small" data-testid="no-try" title={NO_TRY_COMPOSITE}>
          try in a run
        </span>
      ) : (
        <button
          type="button"
          class="map-try"
          disabled={!onTryTool}
          title={
            onTryTool
              ? `Call ${tool.name} once with an input you give`
              : 'Trying a tool needs the workbench'
          }
          onClick={() =>
            onTryTool?.({
              workflowId,
              agent: agent.path,
              tool: tool.name,
              ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}),
            })
          }
        >
          Try
        </button>
      )}
    </div>
  );
}

/** A tool's provenance badges (see `provenanceBadges`). */
function Badges({ tool }: { tool: InspectedTool }) {
  return (
    <>
      {provenanceBadges(tool).map((badge) => (
        <span
          key={badge.label}
          class={`map-badge map-badge-${badge.kind}`}
          {...(badge.title ? { title: badge.title } : {})}
        >
          {badge.label}
        </span>
      ))}
    </>
  );
}

/** A declaration's place (`workflows/release.tsx:12:7`), linked to open the file in an editor. */
function Declaration({ at, root }: { at: string | undefined; root: string | undefined }) {
  if (!at) return null;
  const [file, line] = at.split(':');
  const path = root && !file!.startsWith('/') ? `${root}/${file}` : file;
  return (
    <a
      class="map-declaration mono small"
      href={`vscode://file/${path}:${at.split(':').slice(1).join(':')}`}
      title={`Declared at ${at}`}
    >
      {file}:{line}
    </a>
  );
}
