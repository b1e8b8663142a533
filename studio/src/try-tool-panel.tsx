import { useState } from 'preact/hooks';
import { sampleInput } from '../../src/workflows/sample-input.js';
import type { TriedTool, WorkflowEntry } from '../../src/workflows/workbench-api.js';
import { NO_TRY_COMPOSITE } from './capability-map.js';
import { JsonView } from './json-view.js';
import { runHref } from './use-hash-route.js';
import { WaitingCalls } from './waiting-call.js';
import { tryTool } from './workbench-api.js';

/** A new run id for a tried tool's run, made here so the dialog can show its approval. */
function newTryRunId(): string {
  const random = crypto.getRandomValues(new Uint8Array(6));
  return `try-${Date.now()}-${[...random].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * A tool's input as the dialog starts it: every property of its input schema, each with its
 * default, its first example or enum choice, or an empty value of its type (`sampleInput`,
 * the same sample the map gives composite tools).
 */
function inputTemplate(schema: Record<string, unknown> | undefined): string {
  const sample = sampleInput(schema ?? {}, { properties: 'all' });
  return JSON.stringify(sample ?? {}, null, 2);
}

/**
 * Tries one tool: pick an agent and one of its tools from the map, give its input (JSON,
 * started from its input schema), and Try. A tool that needs approval waits for Approve or
 * Deny here; then its output or error shows, with a link to the run the call made.
 */
export function TryToolPanel(props: {
  workflow: WorkflowEntry;
  /** The props the workflow's tree is resolved with (those of the start form). */
  props: Record<string, unknown>;
  agent?: string;
  tool?: string;
}) {
  const agents = props.workflow.map?.agents ?? [];
  const [agentPath, setAgentPath] = useState(props.agent ?? agents[0]?.path ?? '');
  const agent = agents.find((found) => found.path === agentPath);
  const [toolName, setToolName] = useState(props.tool ?? triable(agent)?.name ?? '');
  const tool = agent?.tools.find((found) => found.name === toolName);
  const [input, setInput] = useState(() => inputTemplate(tool?.inputSchema));
  const { runId, state, call } = useToolCall(props.workflow.id);
  const pickTool = (name: string, path = agentPath) => {
    const next = agents.find((found) => found.path === path)?.tools.find((t) => t.name === name);
    setToolName(name);
    setInput(inputTemplate(next?.inputSchema));
  };
  const run = (event: Event) => {
    event.preventDefault();
    if (tool?.composite) return;
    void call({ agent: agentPath, tool: toolName, props: props.props }, input);
  };
  if (agents.length === 0) return null;
  return (
    <form class="wb-panel" data-testid="try-tool" onSubmit={run}>
      <h2 class="wb-title">Try a tool</h2>
      <ToolPicker
        agents={agents}
        agentPath={agentPath}
        toolName={toolName}
        onAgent={(path) => {
          setAgentPath(path);
          pickTool(triable(agents.find((found) => found.path === path))?.name ?? '', path);
        }}
        onTool={(name) => pickTool(name)}
      />
      <label class="wb-props">
        <span>Input (JSON)</span>
        <textarea
          class="wb-json"
          aria-label="Tool input"
          rows={4}
          value={input}
          onInput={(event) => setInput(event.currentTarget.value)}
        />
      </label>
      <TryButton composite={tool?.composite === true} busy={state.busy === true} ready={!!tool} />
      {runId && <WaitingCalls runId={runId} active={state.busy === true} />}
      {state.error && (
        <p class="wb-error" role="alert" data-testid="tool-error">
          {state.error}
        </p>
      )}
      {state.result && <TriedResult result={state.result} />}
    </form>
  );
}

/** Try, or why a composite tool cannot be tried alone. */
function TryButton(props: { composite: boolean; busy: boolean; ready: boolean }) {
  if (props.composite)
    return (
      <p class="wb-note" data-testid="no-try">
        {NO_TRY_COMPOSITE}
      </p>
    );
  return (
    <button class="wb-button" type="submit" disabled={props.busy || !props.ready}>
      {props.busy ? 'Calling…' : 'Try'}
    </button>
  );
}

type MapAgent = NonNullable<WorkflowEntry['map']>['agents'][number];

/** The tool the dialog picks first for an agent: its first tool that can be tried alone (not composite). */
function triable(agent: MapAgent | undefined) {
  return agent?.tools.find((tool) => !tool.composite) ?? agent?.tools[0];
}

/** The agent and tool selects, the tools marked when they need approval. */
function ToolPicker(props: {
  agents: MapAgent[];
  agentPath: string;
  toolName: string;
  onAgent(path: string): void;
  onTool(name: string): void;
}) {
  const agent = props.agents.find((found) => found.path === props.agentPath);
  return (
    <>
      <label class="wb-prop">
        <span>Agent</span>
        <select
          aria-label="Agent"
          value={props.agentPath}
          onChange={(event) => props.onAgent(event.currentTarget.value)}
        >
          {props.agents.map((found) => (
            <option key={found.path}>{found.path}</option>
          ))}
        </select>
      </label>
      <label class="wb-prop">
        <span>Tool</span>
        <select
          aria-label="Tool"
          value={props.toolName}
          onChange={(event) => props.onTool(event.currentTarget.value)}
        >
          {agent?.tools.map((found) => (
            <option key={found.name} value={found.name}>
              {found.name}
              {found.composite ? ' (composite: try in a run)' : ''}
              {found.needsApproval !== false ? ' (needs approval)' : ''}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** What the call gave (its output, or its error or denial), with a link to its run. */
function TriedResult({ result }: { result: TriedTool }) {
  return (
    <div class="wb-result" data-testid="tool-result">
      {result.error !== undefined ? (
        <p class="wb-error">{result.error}</p>
      ) : (
        <JsonView value={result.output} />
      )}
      <a href={runHref(result.runId)}>the call's run</a>
    </div>
  );
}

/** One call at a time of a workflow's tools: its run id (made here), and how it went. */
function useToolCall(workflowId: string) {
  const [runId, setRunId] = useState<string | undefined>();
  const [state, setState] = useState<{ busy?: boolean; result?: TriedTool; error?: string }>({});
  const call = async (
    target: { agent: string; tool: string; props: Record<string, unknown> },
    input: string,
  ) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      return setState({ error: `The input is not JSON: ${(error as Error).message}` });
    }
    const id = newTryRunId();
    setRunId(id);
    setState({ busy: true });
    try {
      setState({ result: await tryTool(workflowId, { ...target, input: parsed, runId: id }) });
    } catch (error) {
      setState({ error: (error as Error).message });
    }
  };
  return { runId, state, call };
}
