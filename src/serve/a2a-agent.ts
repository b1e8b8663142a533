import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  AgentCard,
  Message,
  Part,
  Task,
  TaskStatusUpdateEvent,
  TaskState as TaskStateValue,
} from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext, User } from '@a2a-js/sdk/server';
import type { ApprovalRequest } from '../approvals/approval-request.js';
import { errorMessage } from '../errors/error-message.js';
import { runState } from '../host/run-state.js';
import { inputSchemaLookup } from './ask-caller.js';
import type { CallContext } from './call-context.js';
import { progressOf } from './call-progress.js';
import type { A2aSdk } from './load-a2a-sdk.js';
import { readJsonBody, refuse } from './serve-gate.js';
import type { Served } from './served-workflow.js';
import { resultOf } from './tool-result.js';

/** Where the A2A agent answers: its JSON-RPC endpoint and its agent card. */
export const A2A_PATH = '/a2a';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
/** The agent card extension whose `params` hold each skill's input schema (the workflow's props). */
export const SKILL_SCHEMAS_EXTENSION = 'https://june.dev/a2a/skill-input-schemas';

/** The served workflows as an A2A agent (`serveWorkflows({ a2a: true })`). */
export interface A2aAgent {
  /** Answers one request to {@link A2A_PATH} or {@link AGENT_CARD_PATH}, from a client known by its token. */
  handle(request: IncomingMessage, response: ServerResponse, client: string): Promise<void>;
  /** Sets the URL the card gives for the JSON-RPC endpoint, once the server listens. */
  listening(url: string): void;
}

/** One task: the run it is, and the requests that run waits for. */
interface TaskRun {
  runId: string;
  contextId: string;
  client: string;
  served: Served;
  bus: ExecutionEventBus;
  /** The requests the run waits for, by request id, in the order asked. */
  waiting: Map<string, ApprovalRequest>;
  schemaOf: (tool: string) => Promise<Record<string, unknown> | undefined>;
  /** How many executor calls wait on this task now (a client's message in progress). */
  executing: number;
  ended: boolean;
}

/**
 * Serves the workflows as an A2A agent with `@a2a-js/sdk`: each workflow is a skill; a
 * message starts a run (the task's id is the run's id) on the same run host as MCP; its
 * approvals and questions put the task in `input-required` with the request in the status
 * message, and the client's next message on the task answers it (`source: 'a2a'`, by the
 * client's name). Other sources may answer first: the task moves on. `tasks/cancel` cancels
 * the run. The result is the task's artifact, a data part.
 */
export function a2aAgent(sdk: A2aSdk, context: CallContext, maxBody: number): A2aAgent {
  const { TaskState, Role } = sdk.core;
  const { host } = context;
  const tasks = new Map<string, TaskRun>();
  const store = new sdk.server.InMemoryTaskStore();

  const card: AgentCard = {
    name: 'June workflows',
    description: `Runs these workflows as durable runs: ${[...context.served.keys()].join(', ')}. Send a data part with the workflow's props (and the skill id in the message metadata "skill" when there is more than one).`,
    supportedInterfaces: [],
    provider: undefined,
    version: '1',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: SKILL_SCHEMAS_EXTENSION,
          description: "Each skill's input schema (JSON Schema of the data part), by skill id.",
          required: false,
          params: Object.fromEntries(
            [...context.served.values()].map((s) => [s.name, s.propsSchema ?? { type: 'object' }]),
          ),
        },
      ],
    },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            description: 'The token of a client of this server.',
            scheme: 'Bearer',
            bearerFormat: '',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [...context.served.values()].map((s) => ({
      id: s.name,
      name: s.name,
      description: s.workflow.description ?? `Runs the workflow ${s.name}.`,
      tags: ['june-workflow'],
      examples: [],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
      securityRequirements: [],
    })),
    signatures: [],
  } as unknown as AgentCard;

  const text = (value: string): Part => ({
    content: { $case: 'text', value },
    mediaType: 'text/plain',
    filename: '',
    metadata: undefined,
  });
  const data = (value: unknown): Part => ({
    content: { $case: 'data', value },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  });
  const agentMessage = (t: { contextId: string }, taskId: string, parts: Part[]): Message =>
    ({
      messageId: randomUUID(),
      role: Role.ROLE_AGENT,
      taskId,
      contextId: t.contextId,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    }) as unknown as Message;
  const status = (
    t: TaskRun,
    state: TaskStateValue,
    parts: Part[] | undefined,
    metadata?: Record<string, unknown>,
  ) =>
    t.bus.publish(
      sdk.server.AgentEvent.statusUpdate({
        taskId: t.runId,
        contextId: t.contextId,
        status: {
          state,
          message: parts ? agentMessage(t, t.runId, parts) : undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: metadata ?? {},
      } as TaskStatusUpdateEvent),
    );

  /** The request as the status message of `input-required` tells it. */
  const askFor = async (t: TaskRun, request: ApprovalRequest, problem?: string) => {
    const key = request.key ?? request.id;
    const isQuestion = request.kind === 'question' && request.question;
    const said = isQuestion
      ? `${request.question!.prompt} Answer with a data part { "answer": <value> } that fits the schema.`
      : `Approve the call of the tool "${request.tool}" in ${request.step || 'the run'}? Its input: ${JSON.stringify(request.input)}. Answer with a data part { "approve": true } (with "input" to run it with other input), or { "approve": false, "reason": "..." }.`;
    const inputSchema = isQuestion ? undefined : await t.schemaOf(request.tool);
    status(t, TaskState.TASK_STATE_INPUT_REQUIRED, [
      text(problem ? `${problem}\n\n${said}` : said),
      data({
        kind: isQuestion ? 'question' : 'approval',
        key,
        tool: request.tool,
        input: request.input,
        step: request.step,
        ...(request.guard?.reason ? { reason: request.guard.reason } : {}),
        ...(inputSchema ? { inputSchema } : {}),
        ...(isQuestion
          ? { prompt: request.question!.prompt, answerSchema: request.question!.answerSchema }
          : {}),
        ...(problem ? { problem } : {}),
      }),
    ]);
  };

  /** Follows the task's run: its steps as `working` updates, its requests, its end. */
  const follow = async (t: TaskRun) => {
    try {
      for await (const event of host.events(t.runId)) {
        if (event.type === 'approval-request') {
          t.waiting.set(event.request.id, event.request);
          if (t.waiting.size === 1) await askFor(t, event.request);
          continue;
        }
        if (event.type === 'approval-response' || event.type === 'approval-withdraw') {
          if (!t.waiting.delete(event.id)) continue;
          const next = t.waiting.values().next();
          if (!next.done) await askFor(t, next.value);
          else status(t, TaskState.TASK_STATE_WORKING, [text(progressOf(event) ?? 'answered')]);
          continue;
        }
        const said = progressOf(event);
        if (said && t.waiting.size === 0) status(t, TaskState.TASK_STATE_WORKING, [text(said)]);
      }
      const trace = await host.result(t.runId);
      const state = runState(trace);
      if (state === 'succeeded') {
        const result = resultOf(trace, t.served);
        t.bus.publish(
          sdk.server.AgentEvent.artifactUpdate({
            taskId: t.runId,
            contextId: t.contextId,
            artifact: {
              artifactId: `${t.runId}-result`,
              name: 'result',
              description: `The output of the workflow ${t.served.name}.`,
              parts: [data(result.structuredContent)],
              metadata: { runId: t.runId },
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: {},
          } as never),
        );
        status(t, TaskState.TASK_STATE_COMPLETED, undefined);
      } else {
        const why = (trace.root.error?.message ?? `it ended ${state}`).replace(/^june: /, '');
        status(
          t,
          state === 'aborted' ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED,
          [text(`june: run "${t.runId}" ${state}: ${why}`)],
        );
      }
    } catch (error) {
      status(t, TaskState.TASK_STATE_FAILED, [
        text(`june: ${errorMessage(error).replace(/^june: /, '')}`),
      ]);
    } finally {
      t.ended = true;
      if (t.executing === 0) t.bus.finished();
    }
  };

  /** Resolves when the bus tells a state a client's message stops at (input-required, or an end). */
  const untilStop = (bus: ExecutionEventBus) =>
    new Promise<void>((resolve) => {
      const stops = new Set<TaskStateValue>([
        TaskState.TASK_STATE_INPUT_REQUIRED,
        TaskState.TASK_STATE_COMPLETED,
        TaskState.TASK_STATE_FAILED,
        TaskState.TASK_STATE_CANCELED,
        TaskState.TASK_STATE_REJECTED,
      ]);
      const listener = (event: { kind: string; data: unknown }) => {
        if (event.kind !== 'statusUpdate') return;
        if (!stops.has((event.data as TaskStatusUpdateEvent).status!.state)) return;
        bus.off('event', listener as never);
        resolve();
      };
      bus.on('event', listener as never);
    });

  /** The data part of a message, if it has one. */
  const dataOf = (message: Message): unknown => {
    for (const part of message.parts ?? [])
      if (part.content?.$case === 'data') return part.content.value;
    for (const part of message.parts ?? [])
      if (part.content?.$case === 'text') {
        try {
          return JSON.parse(part.content.value) as unknown;
        } catch {
          return undefined;
        }
      }
    return undefined;
  };

  const start = async (ctx: RequestContext, bus: ExecutionEventBus, client: string) => {
    const message = ctx.userMessage;
    const asked = message.metadata?.skill;
    const only = context.served.size === 1 ? [...context.served.values()][0] : undefined;
    const served = typeof asked === 'string' ? context.served.get(asked) : only;
    const base: Task = {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: {
        state: TaskState.TASK_STATE_SUBMITTED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      artifacts: [],
      history: [message],
      metadata: {},
    } as unknown as Task;
    const reject = (why: string) => {
      bus.publish(sdk.server.AgentEvent.task(base));
      bus.publish(
        sdk.server.AgentEvent.statusUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state: TaskState.TASK_STATE_REJECTED,
            message: agentMessage(ctx, ctx.taskId, [text(why)]),
            timestamp: new Date().toISOString(),
          },
          metadata: {},
        } as TaskStatusUpdateEvent),
      );
    };
    if (!served)
      return reject(
        typeof asked === 'string'
          ? `june: no skill is named ${JSON.stringify(asked)}; this agent has ${[...context.served.keys()].join(', ')}.`
          : `june: name the skill in the message metadata "skill" (one of ${[...context.served.keys()].join(', ')}).`,
      );
    const props = dataOf(message) ?? {};
    if (typeof props !== 'object' || props === null || Array.isArray(props))
      return reject(`june: the props of ${served.name} are a JSON object, in a data part.`);
    const giveBack = context.calls.take(client);
    if (typeof giveBack === 'string') return reject(giveBack);
    let runId: string;
    try {
      runId = await host.start({
        workflow: served.name,
        props: props as Record<string, unknown>,
        runId: ctx.taskId,
        ...(context.script ? { script: context.script } : {}),
      });
    } catch (error) {
      giveBack();
      return reject(`june: ${errorMessage(error).replace(/^june: /, '')}`);
    }
    const t: TaskRun = {
      runId,
      contextId: ctx.contextId,
      client,
      served,
      bus,
      waiting: new Map(),
      schemaOf: inputSchemaLookup(served, props as Record<string, unknown>),
      executing: 1,
      ended: false,
    };
    tasks.set(runId, t);
    keepStored(t, ctx);
    bus.publish(sdk.server.AgentEvent.task(base));
    const stopped = untilStop(bus);
    status(t, TaskState.TASK_STATE_WORKING, [text(`run ${runId} started`)]);
    void follow(t).finally(giveBack);
    await stopped;
    t.executing -= 1;
  };

  /**
   * Keeps the task store up to date with what happens while no message of the client is in
   * progress (another source answered, the run ended): the SDK stores a task's events only
   * while a request of its client follows them.
   */
  const keepStored = (t: TaskRun, ctx: RequestContext) => {
    let manager: InstanceType<A2aSdk['server']['ResultManager']> | undefined;
    let chain = Promise.resolve();
    t.bus.on('event', (event) => {
      if (t.executing > 0) {
        manager = undefined;
        return;
      }
      manager ??= new sdk.server.ResultManager(store, ctx.context);
      const m = manager;
      chain = chain.then(() => m.processEvent(event)).catch(() => {});
    });
  };

  const answer = async (ctx: RequestContext, bus: ExecutionEventBus, client: string) => {
    const t = tasks.get(ctx.taskId);
    if (!t || t.client !== client || t.ended) {
      bus.publish(
        sdk.server.AgentEvent.statusUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state: TaskState.TASK_STATE_FAILED,
            message: agentMessage(ctx, ctx.taskId, [
              text(`june: the run of task ${ctx.taskId} is not running on this server any more.`),
            ]),
            timestamp: new Date().toISOString(),
          },
          metadata: {},
        } as TaskStatusUpdateEvent),
      );
      return;
    }
    t.executing += 1;
    try {
      const stopped = untilStop(t.bus);
      const given = dataOf(ctx.userMessage);
      const reply = (typeof given === 'object' && given !== null ? given : {}) as Record<
        string,
        unknown
      >;
      const request =
        (typeof reply.key === 'string'
          ? [...t.waiting.values()].find((r) => (r.key ?? r.id) === reply.key)
          : undefined) ?? t.waiting.values().next().value;
      if (!request) {
        status(t, TaskState.TASK_STATE_WORKING, [
          text('june: the run waits for no answer now; it goes on.'),
        ]);
      } else {
        const problem = await give(t, request, reply, client);
        if (problem) await askFor(t, request, problem);
      }
      await stopped;
    } finally {
      t.executing -= 1;
    }
  };

  /** Gives the client's reply to the host; the problem to tell when it is not one. */
  const give = async (
    t: TaskRun,
    request: ApprovalRequest,
    reply: Record<string, unknown>,
    client: string,
  ): Promise<string | undefined> => {
    const from = { key: request.key ?? request.id, source: 'a2a', answeredBy: client };
    let given;
    if (request.kind === 'question') {
      if (!('answer' in reply))
        return 'june: answer the question with a data part { "answer": <value> }.';
      given = { ...from, approved: false, output: reply.answer };
    } else {
      const approve = reply.approve ?? reply.approved;
      if (typeof approve !== 'boolean')
        return 'june: answer with a data part { "approve": true } or { "approve": false, "reason": "..." }.';
      const reason =
        typeof reply.reason === 'string' && reply.reason.trim() ? reply.reason.trim() : undefined;
      given = approve
        ? { ...from, approved: true, ...(reply.input !== undefined ? { input: reply.input } : {}) }
        : { ...from, approved: false, ...(reason ? { reason } : {}) };
    }
    try {
      await host.answer(t.runId, given);
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  };

  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const client = ctx.context.user?.userName ?? '';
      if (!ctx.task) await start(ctx, bus, client);
      else await answer(ctx, bus, client);
    },
    async cancelTask(taskId) {
      const t = tasks.get(taskId);
      if (t && !t.ended) await host.cancel(t.runId);
    },
  };

  const handler = new sdk.server.DefaultRequestHandler(card, store, executor);
  const rpc = new sdk.server.JsonRpcTransportHandler(handler);
  const { JsonRpcTransportHandler, ServerCallContext, validateVersion } = sdk.server;

  return {
    listening(url) {
      card.supportedInterfaces = [
        { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      ];
    },
    async handle(request, response, client) {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path === AGENT_CARD_PATH) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(sdk.core.AgentCard.toJSON(card)));
        return;
      }
      if (request.method !== 'POST')
        return refuse(response, 405, `june: send A2A JSON-RPC requests to ${A2A_PATH} with POST.`);
      const read = await readJsonBody(request, maxBody);
      if ('status' in read) return refuse(response, read.status, read.message);
      const body = read.body as { id?: string | number | null };
      const header = request.headers['a2a-version'];
      const user: User = { isAuthenticated: true, userName: client };
      const callContext = new ServerCallContext({
        user,
        ...(typeof header === 'string' ? { requestedVersion: header } : {}),
      });
      let out: Awaited<ReturnType<typeof rpc.handle>>;
      try {
        validateVersion(callContext.requestedVersion, card, 'JSONRPC');
        out = await rpc.handle(read.body as Record<string, unknown>, callContext);
      } catch (error) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body?.id ?? null,
            error: JsonRpcTransportHandler.mapToJSONRPCError(error),
          }),
        );
        return;
      }
      if (!(Symbol.asyncIterator in out)) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(out));
        return;
      }
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      try {
        for await (const event of out) response.write(`data: ${JSON.stringify(event)}\n\n`);
      } catch (error) {
        const failed = {
          jsonrpc: '2.0',
          id: body?.id ?? null,
          error: JsonRpcTransportHandler.mapToJSONRPCError(error),
        };
        response.write(`event: error\ndata: ${JSON.stringify(failed)}\n\n`);
      } finally {
        response.end();
      }
    },
  };
}
