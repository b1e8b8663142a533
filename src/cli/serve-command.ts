import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { WorkflowError } from '../errors/index.js';
import type { ServedMcp, ServedWorkflow } from '../serve/index.js';
import { loadScript } from '../testing/load-script.js';
import type { CliIO } from './cli-io.js';
import { ExitCode, type ExitCodeValue } from './exit-code.js';
import { loadWorkflow } from './load-workflow.js';
import { portOption } from './studio-command.js';

/** The flags of `june serve`. */
export interface ServeCommandOptions {
  /** `--port`: the TCP port; 0 picks a free one. */
  port?: string;
  /** `--host`: the address to listen on. @default 127.0.0.1 */
  host?: string;
  /** `--allow-host`: further host names requests may address. */
  allowHost?: string[];
  /** `--tokens`: a JSON file of `{ "<client name>": "<token>" }`. */
  tokens?: string;
  /** `--dir`: the runs folder. @default .june/runs */
  dir?: string;
  /** `--script`: a model script answering every model call (offline runs, tests). */
  script?: string;
  /** `--max-calls`: how many calls one client may have running at once. */
  maxCalls?: string;
  /** `--a2a`: serve the workflows as an A2A agent too (needs `@a2a-js/sdk`). */
  a2a?: boolean;
}

/**
 * `june serve <workflow…>`: serves each workflow file as one MCP tool (named after the
 * file: `release.tsx` is `release`) over Streamable HTTP at `http://127.0.0.1:<port>/mcp`,
 * each call a run in the runs folder, until Ctrl-C (or SIGTERM). Prints the URL and, without
 * `--tokens`, the token it made for the client `local`. A file's exports `props`, `output`
 * and `description` are the tool's input schema, output schema and description.
 *
 * @throws {WorkflowError} `cli-option-invalid` for a bad `--port`, `--max-calls` or
 *   `--tokens` file, or two files of one name; the workflows' load errors.
 * With `--a2a` it serves them as an A2A agent too, at `/a2a`, each workflow a skill.
 *
 * @throws {SystemError} `serve-sdk-missing` when `@modelcontextprotocol/sdk` is not installed;
 *   `serve-a2a-sdk-missing` with `--a2a` when `@a2a-js/sdk` is not.
 */
export async function serveCommand(
  files: string[],
  options: ServeCommandOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const port = portOption(options.port) ?? 3400;
  const maxCalls = options.maxCalls === undefined ? undefined : Number(options.maxCalls);
  if (maxCalls !== undefined && !(Number.isInteger(maxCalls) && maxCalls >= 1))
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --max-calls must be a whole number from 1, got ${JSON.stringify(options.maxCalls)}.`,
    );
  const tokens = options.tokens === undefined ? undefined : readTokens(options.tokens);
  const workflows: Record<string, ServedWorkflow> = {};
  for (const file of files) {
    const workflow = await loadWorkflow(file);
    const name = basename(workflow.file, extname(workflow.file));
    if (Object.hasOwn(workflows, name))
      throw new WorkflowError(
        'cli-option-invalid',
        `june: two workflows would be served as the tool "${name}"; rename one of the files.`,
      );
    const { props, output, description } = workflow.exports;
    workflows[name] = {
      component: workflow.component,
      ...(props !== undefined ? { props } : {}),
      ...(output !== undefined ? { output } : {}),
      ...(typeof description === 'string' ? { description } : {}),
      inspect: (inspectOptions) => workflow.june.inspect(workflow.component, inspectOptions),
    };
  }
  const { serveWorkflows } = await import('../serve/index.js');
  const served = await serveWorkflows({
    workflows,
    port,
    ...(options.host !== undefined ? { hostname: options.host } : {}),
    ...(options.allowHost?.length ? { allowHosts: options.allowHost } : {}),
    ...(tokens ? { tokens } : {}),
    ...(options.dir !== undefined ? { dir: options.dir } : {}),
    ...(options.script !== undefined ? { script: loadScript(options.script) } : {}),
    ...(maxCalls !== undefined ? { maxCallsPerClient: maxCalls } : {}),
    ...(options.a2a ? { a2a: true } : {}),
  });
  printServed(io, served, Object.keys(workflows), options.tokens);
  await new Promise((stop) => {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await served.close();
  return ExitCode.success;
}

/** What `june serve` prints once it listens: its endpoints, and the token it made or the clients'. */
function printServed(
  io: CliIO,
  served: ServedMcp,
  names: string[],
  tokensFile: string | undefined,
): void {
  io.stdout.write(`June MCP server: ${served.url} serves ${names.join(', ')} (Ctrl-C to stop)\n`);
  if (served.a2aUrl)
    io.stdout.write(`June A2A agent: ${served.a2aUrl} (card: ${served.agentCardUrl})\n`);
  if (tokensFile === undefined)
    io.stdout.write(
      `Token: ${served.tokens.local} (client "local"; send it as Authorization: Bearer <token>)\n`,
    );
  else
    io.stdout.write(
      `Clients: ${Object.keys(served.tokens).join(', ')} (tokens from ${tokensFile})\n`,
    );
}

/** The `--tokens` file: a JSON object of client names to tokens. */
function readTokens(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --tokens ${path} is not a readable JSON file: ${(error as Error).message}.`,
    );
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((value) => typeof value === 'string')
  )
    throw new WorkflowError(
      'cli-option-invalid',
      `june: --tokens ${path} holds one JSON object of client names to tokens, such as { "ci": "<token>" }.`,
    );
  return parsed as Record<string, string>;
}
