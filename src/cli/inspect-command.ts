import { JuneError, WorkflowError } from '../errors/index.js';
import type { InspectReport, InspectedTool } from '../interpreter/index.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { loadWorkflow } from './load-workflow.js';
import { parseProps } from './parse-props.js';
import { runFailureMessage } from './run-failure-message.js';
import { terminalStyle, type TerminalStyle } from './terminal-style.js';

/** The flags of `june inspect`. */
export interface InspectCommandOptions {
  /** `--props`: the root component's props, as a JSON object. */
  props?: string;
  /** `--json`: print the report as JSON instead of a tree. */
  json?: boolean;
  /**
   * `--details`: `inspect()`'s `details` (each tool's and agent's declaration, `file:line:column`,
   * and each tool's input schema). The workflow is then compiled as `june dev` compiles it, with
   * `"jsx": "react-jsxdev"` over the project's tsconfig, so elements record where they were
   * declared whatever the tsconfig's `jsx` says (`june init` writes `react-jsx`).
   */
  details?: boolean;
}

/**
 * `june inspect <file>`: resolves the capabilities of every agent the workflow renders,
 * without calling a model, and prints them as a tree (or, with `--json`, the
 * `inspect()` report). With `details`, each agent and tool also says where it was declared.
 *
 * @returns {@link ExitCode.success}.
 * @throws {JuneError} `cli-props-invalid`, `cli-workflow-missing`, the workflow's load errors,
 *   and every tree and capability error a run would throw before its first model call;
 *   `workflow-failed` when the workflow's own code throws while it renders.
 * @example
 * ```ts
 * await inspectCommand('examples/release.tsx', {}, processIO());
 * ```
 */
export async function inspectCommand(
  file: string,
  options: InspectCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const props = options.props === undefined ? undefined : parseProps(options.props);
  const details = options.details === true;
  const workflow = await loadWorkflow(file, process.cwd(), { development: details });
  let report: InspectReport;
  try {
    report = await workflow.june.inspect(workflow.component, {
      ...(props ? { props } : {}),
      ...(details ? { details } : {}),
    });
  } catch (error) {
    if (JuneError.isInstance(error)) throw error;
    throw new WorkflowError('workflow-failed', runFailureMessage(error, workflow), {
      cause: error,
    });
  }
  io.stdout.write(
    options.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : formatInspectReport(report, terminalStyle(io.stdout)),
  );
  return ExitCode.success;
}

/**
 * An {@link InspectReport} as a tree: each agent's path, then its tools, one a line, with
 * where each came from, what `<Inherit>` granted it, whether it runs a workflow, and
 * whether it waits for approval, and the guards that check its calls; then the tool sources it declares (MCP servers), whose
 * tools only a run lists.
 *
 * ```
 * agent
 * ├─ readFile  <Tool name="readFile">
 * └─ deploy    <Tool name="deploy">  needs approval
 * ```
 *
 * @example
 * ```ts
 * process.stdout.write(formatInspectReport(await inspect(Release), terminalStyle(process.stdout)));
 * ```
 */
export function formatInspectReport(report: InspectReport, style: TerminalStyle): string {
  if (report.agents.length === 0) return `${style.dim('(the workflow renders no agent)')}\n`;
  const lines: string[] = [];
  for (const agent of report.agents) {
    lines.push(
      agent.declaration === undefined
        ? style.bold(agent.path)
        : `${style.bold(agent.path)}  ${style.dim(`at ${agent.declaration}`)}`,
    );
    const sources = agent.toolSources ?? [];
    if (agent.tools.length === 0 && sources.length === 0)
      lines.push(`└─ ${style.dim('(no tools)')}`);
    const width = Math.max(0, ...agent.tools.map((tool) => tool.name.length));
    agent.tools.forEach((tool, index) => {
      const branch = index === agent.tools.length - 1 && sources.length === 0 ? '└─' : '├─';
      lines.push(`${branch} ${style.tool(tool.name.padEnd(width))}  ${details(tool, style)}`);
    });
    sources.forEach((source, index) => {
      const guarded = agent.guards?.length
        ? `  ${style.attention(`guarded by ${agent.guards.join(', ')}`)}`
        : '';
      lines.push(
        `${index === sources.length - 1 ? '└─' : '├─'} ${source}  ${style.dim('tool source: its tools are listed when a run connects')}${guarded}`,
      );
    });
  }
  return `${lines.join('\n')}\n`;
}

function details(tool: InspectedTool, style: TerminalStyle): string {
  const parts = [tool.source];
  if (tool.granted !== undefined) parts.push(style.dim(`granted: ${tool.granted}`));
  if (tool.composite) parts.push(style.dim('composite: runs a workflow'));
  if (tool.needsApproval === true) parts.push(style.attention('needs approval'));
  if (tool.needsApproval === 'dynamic') parts.push(style.attention('approval decided per call'));
  if (tool.guards?.length) parts.push(style.attention(`guarded by ${tool.guards.join(', ')}`));
  if (tool.budgets?.length) parts.push(style.attention(`capped by ${tool.budgets.join(', ')}`));
  if (tool.declaration !== undefined) parts.push(style.dim(`at ${tool.declaration}`));
  return parts.join('  ');
}
