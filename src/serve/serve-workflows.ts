import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApprovalRequest } from '../approvals/approval-request.js';
import type { Component } from '../elements/element.js';
import { errorMessage } from '../errors/error-message.js';
import { JuneError, SystemError } from '../errors/june-error.js';
import type { RunLogEvent } from '../events/run-event.js';
import { localRunHost } from '../host/local-run-host.js';
import type { HostedRunOptions } from '../host/memory-runs.js';
import type { RunHost } from '../host/run-host.js';
import { runState } from '../host/run-state.js';
import { inspect, type InspectReport } from '../interpreter/inspect.js';
import type { ModelScript } from '../testing/script-format.js';
import type { Trace, TraceNode } from '../trace/trace-node.js';
import { fitProps, propsMisfitMessage } from '../workflows/props-fit.js';
import { propsSchemaOf } from '../workflows/props-schema.js';
import { studioAccess } from '../studio/studio-access.js';
import { answerOfReply, elicitationFor, type ElicitationReply } from './elicitation-form.js';
import { loadMcpSdk, type McpSdk } from './load-mcp-sdk.js';
import { clientOf, readJsonBody, rebindingProblem, refuse } from './serve-gate.js';

/** The `_meta` key a client sends an idempotency key under, so a call made again finds its run. */
export const IDEMPOTENCY_KEY = 'june/idempotency-key';
/** The `_meta` key of a served call's result that names its run. */
export const RUN_ID_KEY = 'june/run-id';

/**
 * A workflow to serve as one MCP tool: its root component, and what the tool says of it.
 * - `props`: the schema of its props (zod, any Standard Schema, `jsonSchema()`): the tool's
 *   input schema, checked before a run starts;
 * - `output`: the schema of the run's output: the tool's output schema;
 * - `description`: the tool's description;
 * - `inspect`: what the workflow's `inspect` resource gives. @default `inspect(component)`
 */
export interface ServedWorkflow {
  component: Component;
  props?: unknown;
  output?: unknown;
  description?: string;
  inspect?: (options: {
    props?: Record<string, unknown>;
    details?: boolean;
  }) => Promise<InspectReport>;
}

/** Options of {@link serveWorkflows}. */
export interface ServeOptions {
  /** The workflows, by tool name (letters, digits, `_`, `-`, `.`): a component, or a {@link ServedWorkflow}. */
  workflows: Record<string, Component | ServedWorkflow>;
  /** The runs folder the calls' runs are kept in. @default ".june/runs" */
  dir?: string;
  /** The address to listen on. @default "127.0.0.1" */
  hostname?: string;
  /** The port; 0 for a free one. @default 0 */
  port?: number;
  /**
   * The bearer tokens, by client name: the name is the client's identity in the answers it
   * gives (`answeredBy`) and for its limits. @default one random token named `local`
   */
  tokens?: Record<string, string>;
  /** Further host names requests may address (`Host`, `Origin`), beyond the bound address. */
  allowHosts?: string[];
  /** The largest request body taken, in bytes. @default 1_000_000 */
  maxBodyBytes?: number;
  /** How many calls one client may have running at once. @default 4 */
  maxCallsPerClient?: number;
  /** How long an elicitation waits for the client, in ms; then the call waits for other sources only. @default 3_600_000 */
  elicitationTimeoutMs?: number;
  /** Further options of every run (`model`, `redact`, ...). */
  runOptions?: HostedRunOptions;
  /** A model script answering every model call of each run (as `june run --script`). */
  script?: ModelScript;
}

/** A running MCP server ({@link serveWorkflows}). */
export interface ServedMcp {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The tokens it takes, by client name. */
  tokens: Record<string, string>;
  /** The run host its calls run on (answer, list and cancel them here too). */
  host: RunHost;
  /** Stops taking requests, aborts the runs (their journals keep them for a resume), and closes. */
  close(): Promise<void>;
}

interface Served {
  name: string;
  workflow: ServedWorkflow;
  propsSchema: Record<string, unknown> | undefined;
  outputSchema: Record<string, unknown> | undefined;
}

/** What one MCP session holds: its transport and server, and whose it is. */
interface Session {
  client: string;
  transport: InstanceType<McpSdk['http']['StreamableHTTPServerTransport']>;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Serves workflows over MCP Streamable HTTP with the official MCP SDK
 * (`@modelcontextprotocol/sdk`, an optional peer dependency): each workflow is one tool,
 * each call a durable run in the runs folder (`localRunHost`), whose approvals and
 * questions reach the caller as elicitation while every other source (Studio, `june
 * approve`) can answer them too. See docs/serving.md.
 *
 * @throws {SystemError} `serve-sdk-missing` when the MCP SDK is not installed;
 *   `serve-option-invalid` for a tool name or token that cannot be one;
 *   `serve-workflow-invalid` for a workflow that is not a component.
 * @example
 * ```ts
 * const served = await serveWorkflows({ workflows: { release: Release }, port: 3400 });
 * console.log(served.url, served.tokens.local);
 * ```
 */
export async function serveWorkflows(options: ServeOptions): Promise<ServedMcp> {
  const sdk = await loadMcpSdk();
  const served = await servedWorkflows(options.workflows);
  const hostname = options.hostname ?? '127.0.0.1';
  const tokens = options.tokens ?? { local: randomBytes(24).toString('base64url') };
  const tokenBytes = checkedTokens(tokens);
  const access = studioAccess(hostname, options.allowHosts ?? []);
  const host = await localRunHost({
    dir: options.dir ?? '.june/runs',
    workflows: Object.fromEntries([...served.values()].map((s) => [s.name, s.workflow.component])),
    ...(options.runOptions ? { runOptions: options.runOptions } : {}),
  });
  const calls = new CallLimits(options.maxCallsPerClient ?? 4);
  const sessions = new Map<string, Session>();
  const context: CallContext = {
    sdk,
    host,
    served,
    calls,
    elicitationTimeoutMs: options.elicitationTimeoutMs ?? 3_600_000,
    ...(options.script ? { script: options.script } : {}),
  };

  const handle = requestHandler({
    context,
    allowedHosts: access.allowedHosts,
    tokens: tokenBytes,
    maxBody: options.maxBodyBytes ?? 1_000_000,
    sessions,
  });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      refuse(response, 500, `june: the request failed: ${errorMessage(error)}`),
    );
  });
  const port = await listen(server, hostname, options.port ?? 0);
  const shown = hostname.includes(':') ? `[${hostname}]` : hostname;
  return {
    url: `http://${shown}:${port}/mcp`,
    tokens,
    host,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await host.close();
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
    },
  };
}

/** Listens on `hostname`:`port`; the port it got. @throws {SystemError} `serve-option-invalid` */
async function listen(server: Server, hostname: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new SystemError(
          'serve-option-invalid',
          `june: cannot listen on ${hostname}:${port}: ${errorMessage(error)}; pick another --port or --host.`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, hostname, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** What the HTTP side checks each request against, and the sessions it opened. */
interface Gate {
  context: CallContext;
  allowedHosts: ReadonlySet<string>;
  tokens: ReadonlyMap<string, Buffer>;
  maxBody: number;
  sessions: Map<string, Session>;
}

/**
 * Handles one HTTP request: the Host and Origin check, the endpoint, the bearer token, the
 * session (a client's own only), the body limit; then the session's MCP transport.
 */
function requestHandler(gate: Gate) {
  const { context, sessions } = gate;
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const rebinding = rebindingProblem(request, gate.allowedHosts);
    if (rebinding) return refuse(response, 403, rebinding);
    if (path !== '/mcp')
      return refuse(response, 404, `june: nothing is served at ${path}; the MCP endpoint is /mcp.`);
    const client = clientOf(request, gate.tokens);
    if (!client)
      return refuse(
        response,
        401,
        'june: this server takes calls with a bearer token (Authorization: Bearer <token>); the token is missing or not one it knows.',
        { 'www-authenticate': 'Bearer error="invalid_token"' },
      );
    const sid = request.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
    // an unknown session is told as the SDK tells it (404, -32001), so a client starts anew
    if (typeof sid === 'string' && (!known || known.client !== client))
      return refuse(response, 404, 'Session not found', {}, -32001);
    let body: unknown;
    if (request.method === 'POST') {
      const read = await readJsonBody(request, gate.maxBody);
      if ('status' in read) return refuse(response, read.status, read.message);
      body = read.body;
    }
    let session = known;
    if (!session) {
      if (request.method !== 'POST' || !context.sdk.types.isInitializeRequest(body))
        return refuse(
          response,
          400,
          'june: start a session first (an initialize request without Mcp-Session-Id).',
        );
      session = openSession(context, client, sessions);
    }
    await session.transport.handleRequest(request, response, body);
  };
}

async function servedWorkflows(workflows: ServeOptions['workflows']): Promise<Map<string, Served>> {
  const served = new Map<string, Served>();
  for (const [name, given] of Object.entries(workflows)) {
    if (!TOOL_NAME.test(name))
      throw new SystemError(
        'serve-option-invalid',
        `june: ${JSON.stringify(name)} cannot be an MCP tool's name; use letters, digits, "_", "-" and "." (at most 128).`,
      );
    const workflow = typeof given === 'function' ? { component: given } : given;
    if (typeof workflow?.component !== 'function')
      throw new SystemError(
        'serve-workflow-invalid',
        `june: the workflow "${name}" is not a component; serve a function component or { component }.`,
      );
    served.set(name, {
      name,
      workflow,
      propsSchema: await propsSchemaOf(workflow.props),
      outputSchema: await propsSchemaOf(workflow.output),
    });
  }
  if (served.size === 0)
    throw new SystemError('serve-option-invalid', 'june: give at least one workflow to serve.');
  return served;
}

function checkedTokens(tokens: Record<string, string>): Map<string, Buffer> {
  const checked = new Map<string, Buffer>();
  for (const [name, token] of Object.entries(tokens)) {
    if (!/^[A-Za-z0-9_.@-]{1,64}$/.test(name) || typeof token !== 'string' || token.length < 16)
      throw new SystemError(
        'serve-option-invalid',
        `june: the token of the client ${JSON.stringify(name)} is not one: a client's name is 1 to 64 letters, digits, "_", ".", "@" or "-", and its token at least 16 characters.`,
      );
    checked.set(name, Buffer.from(token));
  }
  if (checked.size === 0)
    throw new SystemError('serve-option-invalid', 'june: give at least one client token.');
  return checked;
}

/** Counts each client's calls in progress, up to a limit. */
class CallLimits {
  readonly #running = new Map<string, number>();
  constructor(readonly limit: number) {}
  /** A function that gives the call back, or a `june:` message when the client is at its limit. */
  take(client: string): (() => void) | string {
    const now = this.#running.get(client) ?? 0;
    if (now >= this.limit)
      return `june: the client "${client}" has ${now} calls running, as many as it may; wait for one to end.`;
    this.#running.set(client, now + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#running.set(client, (this.#running.get(client) ?? 1) - 1);
    };
  }
}

interface CallContext {
  sdk: McpSdk;
  host: RunHost;
  served: Map<string, Served>;
  calls: CallLimits;
  elicitationTimeoutMs: number;
  script?: ModelScript;
}

function openSession(
  context: CallContext,
  client: string,
  sessions: Map<string, Session>,
): Session {
  const { sdk } = context;
  const transport = new sdk.http.StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, session),
  });
  const session: Session = { client, transport };
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  const server = new sdk.server.Server(
    { name: 'june', version: '1' },
    { capabilities: { tools: {}, resources: {} } },
  );
  registerHandlers(context, server, client);
  // The SDK's client ignores a cancellation of request id 0 (`if (!requestId) return` in
  // Protocol._oncancel, 1.32), and ids count from 0 per session: a ping takes id 0, so
  // a withdrawn elicitation is always one the client can be told of.
  server.oninitialized = () => void server.ping().catch(() => {});
  void server.connect(transport);
  return session;
}

type McpServer = InstanceType<McpSdk['server']['Server']>;

function registerHandlers(context: CallContext, server: McpServer, client: string): void {
  const { sdk, served } = context;
  const { types } = sdk;
  const invalid = (message: string) => new types.McpError(types.ErrorCode.InvalidParams, message);
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: [...served.values()].map((s) => ({
      name: s.name,
      ...(s.workflow.description ? { description: s.workflow.description } : {}),
      inputSchema: (s.propsSchema ?? { type: 'object' }) as { type: 'object' },
      ...(s.outputSchema ? { outputSchema: objectOutputSchema(s.outputSchema) } : {}),
    })),
  }));
  registerResources(context, server);
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const s = served.get(request.params.name);
    if (!s)
      throw invalid(
        `june: no tool "${request.params.name}" here; it serves ${[...served.keys()].join(', ')}.`,
      );
    const fit = fitProps(request.params.arguments ?? {}, s.propsSchema);
    if ('problems' in fit)
      throw invalid(propsMisfitMessage(s.name, fit.problems, 'Fix the arguments and call again.'));
    const key = request.params._meta?.[IDEMPOTENCY_KEY];
    if (key !== undefined && (typeof key !== 'string' || key.length === 0 || key.length > 200))
      throw invalid(`june: _meta["${IDEMPOTENCY_KEY}"] is a string of 1 to 200 characters.`);
    const release = context.calls.take(client);
    if (typeof release === 'string')
      throw new types.McpError(types.ErrorCode.InvalidRequest, release);
    try {
      return await callWorkflow(context, server, client, s, fit.props, key, {
        signal: extra.signal,
        requestId: extra.requestId,
        progressToken: request.params._meta?.progressToken,
        notify: (params) =>
          extra.sendNotification({ method: 'notifications/progress', params } as never),
      });
    } finally {
      release();
    }
  });
}

/** The resources: each workflow's `inspect()` report, as JSON. */
function registerResources(context: CallContext, server: McpServer): void {
  const { served } = context;
  const { types } = context.sdk;
  const invalid = (message: string) => new types.McpError(types.ErrorCode.InvalidParams, message);
  server.setRequestHandler(types.ListResourcesRequestSchema, () => ({
    resources: [...served.values()].map((s) => ({
      uri: inspectUri(s.name),
      name: `${s.name} (inspect)`,
      description: `What inspect() reports of the workflow "${s.name}": its agents and the tools each may call.`,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    const s = [...served.values()].find((entry) => inspectUri(entry.name) === request.params.uri);
    if (!s)
      throw invalid(
        `june: no resource ${JSON.stringify(request.params.uri)}; resources/list names them.`,
      );
    let report: InspectReport;
    try {
      report = await inspectOf(s, {});
    } catch (error) {
      throw new types.McpError(types.ErrorCode.InternalError, errorMessage(error));
    }
    return {
      contents: [
        { uri: request.params.uri, mimeType: 'application/json', text: JSON.stringify(report) },
      ],
    };
  });
}

function inspectUri(name: string): string {
  return `june://workflows/${name}/inspect`;
}

function inspectOf(
  s: Served,
  options: { props?: Record<string, unknown>; details?: boolean },
): Promise<InspectReport> {
  return s.workflow.inspect ? s.workflow.inspect(options) : inspect(s.workflow.component, options);
}

/** A tool's output schema is an object: a run's output of another type is given as `{ result }`. */
function objectOutputSchema(schema: Record<string, unknown>): { type: 'object' } {
  if (schema.type === 'object') return schema as { type: 'object' };
  return { type: 'object', properties: { result: schema }, required: ['result'] } as never;
}

/** The run id a client's idempotency key names: the same for the same client, tool and key. */
function keyedRunId(client: string, tool: string, key: string): string {
  const hash = createHash('sha256').update(`${client}\0${tool}\0${key}`).digest('hex');
  return `mcp-${hash.slice(0, 32)}`;
}

interface CallExtra {
  signal: AbortSignal;
  requestId: string | number;
  progressToken: string | number | undefined;
  notify: (params: Record<string, unknown>) => Promise<void>;
}

/**
 * Runs one call: starts its run (or finds the run its idempotency key names: an ended
 * run's result is given again, a stopped one is resumed, a live one followed), asks the
 * caller about each request it waits for, reports its steps, and gives its result.
 */
async function callWorkflow(
  context: CallContext,
  server: McpServer,
  client: string,
  s: Served,
  props: Record<string, unknown>,
  key: string | undefined,
  extra: CallExtra,
): Promise<Record<string, unknown>> {
  const { host } = context;
  const runId = key === undefined ? undefined : keyedRunId(client, s.name, key);
  const started = await startOrFind(context, s, props, runId);
  if ('ended' in started) return resultOf(started.ended, s);
  const id = started.runId;
  const cancel = () => void host.cancel(id).catch(() => {});
  extra.signal.addEventListener('abort', cancel, { once: true });
  const asking = new Map<string, AbortController>();
  const follow = new AbortController();
  let progress = 0;
  const report = (message: string) => {
    if (extra.progressToken === undefined) return;
    progress += 1;
    void extra.notify({ progressToken: extra.progressToken, progress, message }).catch(() => {});
  };
  const elicits = server.getClientCapabilities()?.elicitation !== undefined;
  const schemaOf = inputSchemaLookup(s, props);
  try {
    report(`run ${id} started`);
    for await (const event of host.events(id, { signal: follow.signal })) {
      const said = progressOf(event);
      if (said) report(said);
      if (event.type === 'approval-request' && elicits) {
        const controller = new AbortController();
        asking.set(event.request.id, controller);
        void ask(
          context,
          server,
          client,
          id,
          event.request,
          schemaOf,
          controller.signal,
          extra,
        ).finally(() => asking.delete(event.request.id));
      }
      if (event.type === 'approval-response' || event.type === 'approval-withdraw')
        asking.get(event.id)?.abort('answered or withdrawn');
    }
    const trace = await host.result(id);
    return resultOf(trace, s);
  } finally {
    for (const controller of asking.values()) controller.abort('the run ended');
    follow.abort();
    extra.signal.removeEventListener('abort', cancel);
  }
}

/**
 * The input schema of a tool of the workflow, by name, from `inspect()` with details (once,
 * when first asked); undefined for a tool it does not find.
 */
function inputSchemaLookup(
  s: Served,
  props: Record<string, unknown>,
): (tool: string) => Promise<Record<string, unknown> | undefined> {
  let schemas: Promise<Map<string, Record<string, unknown>>> | undefined;
  return async (tool) => {
    schemas ??= inspectOf(s, { props, details: true })
      .then((found) => {
        const map = new Map<string, Record<string, unknown>>();
        for (const agent of found.agents)
          for (const t of agent.tools)
            if (t.inputSchema && !map.has(t.name)) map.set(t.name, t.inputSchema);
        return map;
      })
      .catch(() => new Map<string, Record<string, unknown>>());
    return (await schemas).get(tool);
  };
}

/** What a progress notification says of an event, if anything. */
function progressOf(event: RunLogEvent): string | undefined {
  switch (event.type) {
    case 'step-start':
      return `step ${event.step} started`;
    case 'step-finish':
      return `step ${event.step} ${event.status}`;
    case 'approval-request':
      return event.request.kind === 'question'
        ? `waiting for an answer: ${event.request.question?.prompt ?? event.request.tool} (call ${event.request.key ?? event.request.id})`
        : `waiting for approval of ${event.request.tool} (call ${event.request.key ?? event.request.id})`;
    case 'approval-response':
      return `${event.approved ? 'approved' : 'answered'}${event.source ? ` through ${event.source}` : ''}`;
    default:
      return undefined;
  }
}

/**
 * Starts the call's run, or, for an idempotency key whose run exists, finds it: an ended
 * run (succeeded or failed) is given as it ended; a stopped one (its server stopped) is
 * resumed from its journal; a live one is followed.
 */
async function startOrFind(
  context: CallContext,
  s: Served,
  props: Record<string, unknown>,
  runId: string | undefined,
): Promise<{ runId: string } | { ended: Trace }> {
  const { host } = context;
  const request = {
    workflow: s.name,
    props,
    ...(context.script ? { script: context.script } : {}),
  };
  if (runId === undefined) return { runId: await host.start(request) };
  try {
    return { runId: await host.start({ ...request, runId }) };
  } catch (error) {
    if (!JuneError.isInstance(error) || error.code !== 'studio-run-exists') throw error;
  }
  const found = await host.readTrace(runId);
  if ('text' in found) {
    const trace = JSON.parse(found.text) as Trace;
    const state = runState(trace);
    if (state === 'succeeded' || state === 'failed') return { ended: trace };
  }
  try {
    await host.resume(runId);
  } catch (error) {
    // a run of this process that has not stopped: followed as it goes
    if (!JuneError.isInstance(error) || error.code !== 'run-host-unsupported') throw error;
    const found = await host.readTrace(runId);
    if ('text' in found) {
      const trace = JSON.parse(found.text) as Trace;
      const state = runState(trace);
      if (state === 'succeeded' || state === 'failed') return { ended: trace };
    }
  }
  return { runId };
}

/**
 * Asks the caller about one waiting request, through elicitation, until it answers (its
 * answer given to the host as `source: 'mcp'`, by the client's name), the request is
 * answered another way or withdrawn (`signal`: the elicitation is cancelled), or the client
 * cancels or times out (the request waits for other sources). An answer the run refuses
 * (an edit that does not fit the tool's schema) is asked again with the run's message.
 */
async function ask(
  context: CallContext,
  server: McpServer,
  client: string,
  runId: string,
  request: ApprovalRequest,
  schemaOf: (tool: string) => Promise<Record<string, unknown> | undefined>,
  signal: AbortSignal,
  extra: CallExtra,
): Promise<void> {
  let problem: string | undefined;
  const inputSchema = request.kind === 'question' ? undefined : await schemaOf(request.tool);
  for (let attempt = 0; attempt < 5 && !signal.aborted; attempt++) {
    const { form, shape } = elicitationFor(request, inputSchema, problem);
    let reply: ElicitationReply;
    try {
      reply = (await server.elicitInput({ mode: 'form', ...form } as never, {
        relatedRequestId: extra.requestId,
        signal,
        timeout: context.elicitationTimeoutMs,
      })) as ElicitationReply;
    } catch {
      return; // withdrawn, timed out, or the client cannot answer: other sources still can
    }
    const read = answerOfReply(request.key ?? request.id, shape, reply, client);
    if (read === undefined) return;
    if ('problem' in read) {
      problem = read.problem;
      continue;
    }
    try {
      await context.host.answer(runId, read.answer);
      return;
    } catch (error) {
      if (JuneError.isInstance(error) && error.code === 'studio-approval-unknown') return;
      problem = errorMessage(error);
    }
  }
}

/** A run's end as an MCP tool result. */
function resultOf(trace: Trace, s: Served): Record<string, unknown> {
  const meta = { _meta: { [RUN_ID_KEY]: trace.runId } };
  const state = runState(trace);
  if (state === 'succeeded') {
    const output = outputOf(trace);
    const isObject = typeof output === 'object' && output !== null && !Array.isArray(output);
    const wrap = !isObject || (s.outputSchema !== undefined && s.outputSchema.type !== 'object');
    const structured = wrap ? { result: output ?? null } : output;
    const text = typeof output === 'string' ? output : JSON.stringify(output ?? null);
    return { content: [{ type: 'text', text }], structuredContent: structured, ...meta };
  }
  const why = trace.root.error?.message ?? `it ended ${state}`;
  return {
    isError: true,
    content: [
      { type: 'text', text: `june: run "${trace.runId}" ${state}: ${why.replace(/^june: /, '')}` },
    ],
    ...meta,
  };
}

/**
 * A run's output as `run()` makes it by default, read from its trace: its only step's
 * result, or the object of every step's result by step path (the steps of child runs,
 * under tool calls, aside).
 */
export function outputOf(trace: Trace): unknown {
  const steps: Record<string, unknown> = {};
  const stack: TraceNode[] = [trace.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'step' && node.status === 'succeeded')
      steps[node.step ?? node.name] = node.result;
    if (node.kind !== 'tool')
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  const ids = Object.keys(steps);
  return ids.length === 1 ? steps[ids[0]!] : steps;
}
