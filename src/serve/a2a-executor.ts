import type { Message, Part, Task, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type {
  AgentExecutionEvent,
  AgentExecutor,
  ExecutionEventBus,
  RequestContext,
  TaskStore,
} from '@a2a-js/sdk/server';
import type { ApprovalRequest } from '../approvals/approval-request.js';
import { errorMessage } from '../errors/error-message.js';
import type { ApprovalAnswerInput } from '../host/approval-desk.js';
import { runState } from '../host/run-state.js';
import { inputSchemaLookup } from './ask-caller.js';
import { agentMessage, dataOf, dataPart, textPart } from './a2a-parts.js';
import type { CallContext } from './call-context.js';
import { progressOf } from './call-progress.js';
import type { A2aSdk } from './load-a2a-sdk.js';
import type { Served } from './served-workflow.js';
import { resultOf } from './tool-result.js';

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
  /** How many client messages on this task are in progress. */
  executing: number;
  ended: boolean;
}

const june = (error: unknown) => `june: ${errorMessage(error).replace(/^june: /, '')}`;

/**
 * The A2A agent executor of served workflows: a message without a task starts a run (the
 * task's id is the run's id) and follows it; each waiting approval or question makes the
 * task `input-required`, its request in the status message; the client's next message on
 * the task answers it (`source: 'a2a'`, by the client's name). Each message returns at the
 * next state a client acts on (input-required or an end); other sources may answer between
 * messages, and the task moves on. Cancelling the task cancels the run.
 */
export class A2aExecutor implements AgentExecutor {
  readonly #tasks = new Map<string, TaskRun>();
  readonly #states: A2aSdk['core']['TaskState'];
  readonly #agent: number;

  constructor(
    private readonly sdk: A2aSdk,
    private readonly context: CallContext,
    private readonly store: TaskStore,
  ) {
    this.#states = sdk.core.TaskState;
    this.#agent = sdk.core.Role.ROLE_AGENT;
  }

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const client = ctx.context.user?.userName ?? '';
    if (!ctx.task) await this.#start(ctx, bus, client);
    else await this.#answer(ctx, bus, client);
  }

  async cancelTask(taskId: string): Promise<void> {
    const t = this.#tasks.get(taskId);
    if (t && !t.ended) await this.context.host.cancel(t.runId);
  }

  /** Starts the run the message asks for, then waits for the first state a client acts on. */
  async #start(ctx: RequestContext, bus: ExecutionEventBus, client: string): Promise<void> {
    const message = ctx.userMessage;
    const task = {
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: this.#states.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      artifacts: [],
      history: [message],
      metadata: {},
    } as unknown as Task;
    bus.publish(this.sdk.server.AgentEvent.task(task));
    const asked = this.#servedOf(message);
    if (typeof asked === 'string')
      return this.#settle(ctx, bus, this.#states.TASK_STATE_REJECTED, asked);
    const props = dataOf(message) ?? {};
    if (typeof props !== 'object' || props === null || Array.isArray(props))
      return this.#settle(
        ctx,
        bus,
        this.#states.TASK_STATE_REJECTED,
        `june: the props of ${asked.name} are a JSON object, in a data part.`,
      );
    const giveBack = this.context.calls.take(client);
    if (typeof giveBack === 'string')
      return this.#settle(ctx, bus, this.#states.TASK_STATE_REJECTED, giveBack);
    let runId: string;
    try {
      runId = await this.context.host.start({
        workflow: asked.name,
        props: props as Record<string, unknown>,
        runId: ctx.taskId,
        ...(this.context.script ? { script: this.context.script } : {}),
      });
    } catch (error) {
      giveBack();
      return this.#settle(ctx, bus, this.#states.TASK_STATE_REJECTED, june(error));
    }
    const t: TaskRun = {
      runId,
      contextId: ctx.contextId,
      client,
      served: asked,
      bus,
      waiting: new Map(),
      schemaOf: inputSchemaLookup(asked, props as Record<string, unknown>),
      executing: 1,
      ended: false,
    };
    this.#tasks.set(runId, t);
    this.#keepStored(t, ctx);
    const stopped = this.#untilStop(bus);
    this.#status(t, this.#states.TASK_STATE_WORKING, [textPart(`run ${runId} started`)]);
    void this.#follow(t).finally(giveBack);
    await stopped;
    t.executing -= 1;
  }

  /** The workflow a message asks for (its `metadata.skill`, or the only one), or why none. */
  #servedOf(message: Message): Served | string {
    const { served } = this.context;
    const asked = message.metadata?.skill as unknown;
    const names = [...served.keys()].join(', ');
    if (typeof asked === 'string')
      return (
        served.get(asked) ??
        `june: no skill is named ${JSON.stringify(asked)}; this agent has ${names}.`
      );
    if (served.size === 1) return [...served.values()][0]!;
    return `june: name the skill in the message metadata "skill" (one of ${names}).`;
  }

  /** Answers a waiting request with the client's message, then waits for the next state a client acts on. */
  async #answer(ctx: RequestContext, bus: ExecutionEventBus, client: string): Promise<void> {
    // the task as it stands first: a streamed message's events start with its task
    if (ctx.task) bus.publish(this.sdk.server.AgentEvent.task(ctx.task));
    const t = this.#tasks.get(ctx.taskId);
    if (!t || t.client !== client || t.ended)
      return this.#settle(
        ctx,
        bus,
        this.#states.TASK_STATE_FAILED,
        `june: the run of task ${ctx.taskId} is not running on this server any more.`,
      );
    t.executing += 1;
    try {
      const stopped = this.#untilStop(t.bus);
      const given = dataOf(ctx.userMessage);
      const reply = (typeof given === 'object' && given !== null ? given : {}) as Record<
        string,
        unknown
      >;
      const waiting = [...t.waiting.values()];
      const request =
        (typeof reply.key === 'string'
          ? waiting.find((r) => (r.key ?? r.id) === reply.key)
          : undefined) ?? waiting[0];
      if (!request)
        this.#status(t, this.#states.TASK_STATE_WORKING, [
          textPart('june: the run waits for no answer now; it goes on.'),
        ]);
      else {
        const problem = await this.#give(t, request, reply, client);
        if (problem) await this.#askFor(t, request, problem);
      }
      await stopped;
    } finally {
      t.executing -= 1;
    }
  }

  /** Gives the client's reply to the run host; the problem to tell when it is not one or the run refuses it. */
  async #give(
    t: TaskRun,
    request: ApprovalRequest,
    reply: Record<string, unknown>,
    client: string,
  ): Promise<string | undefined> {
    const from = { key: request.key ?? request.id, source: 'a2a', answeredBy: client };
    let given: ApprovalAnswerInput;
    if (request.kind === 'question') {
      if (!('answer' in reply))
        return 'june: answer the question with a data part { "answer": <value> }.';
      given = { ...from, approved: false, output: reply.answer };
    } else {
      const approve = reply.approve ?? reply.approved;
      if (typeof approve !== 'boolean')
        return 'june: answer with a data part { "approve": true } or { "approve": false, "reason": "..." }.';
      const reason = typeof reply.reason === 'string' ? reply.reason.trim() : '';
      given = approve
        ? { ...from, approved: true, ...(reply.input !== undefined ? { input: reply.input } : {}) }
        : { ...from, approved: false, ...(reason ? { reason } : {}) };
    }
    try {
      await this.context.host.answer(t.runId, given);
      return undefined;
    } catch (error) {
      return june(error);
    }
  }

  /** Follows the task's run: its steps as `working` updates, its requests, its end. */
  async #follow(t: TaskRun): Promise<void> {
    try {
      for await (const event of this.context.host.events(t.runId)) {
        if (event.type === 'approval-request') {
          t.waiting.set(event.request.id, event.request);
          if (t.waiting.size === 1) await this.#askFor(t, event.request);
        } else if (event.type === 'approval-response' || event.type === 'approval-withdraw') {
          if (!t.waiting.delete(event.id)) continue;
          const next = t.waiting.values().next();
          if (!next.done) await this.#askFor(t, next.value);
          else
            this.#status(t, this.#states.TASK_STATE_WORKING, [
              textPart(progressOf(event) ?? 'answered'),
            ]);
        } else {
          const said = progressOf(event);
          if (said && t.waiting.size === 0)
            this.#status(t, this.#states.TASK_STATE_WORKING, [textPart(said)]);
        }
      }
      await this.#end(t);
    } catch (error) {
      this.#status(t, this.#states.TASK_STATE_FAILED, [textPart(june(error))]);
    } finally {
      t.ended = true;
      this.#tasks.delete(t.runId);
      if (t.executing === 0) t.bus.finished();
    }
  }

  /** The run's end as the task's: its output as the artifact and `completed`, else `failed` or `canceled`. */
  async #end(t: TaskRun): Promise<void> {
    const trace = await this.context.host.result(t.runId);
    const state = runState(trace);
    if (state !== 'succeeded') {
      const why = (trace.root.error?.message ?? `it ended ${state}`).replace(/^june: /, '');
      const ended =
        state === 'aborted' ? this.#states.TASK_STATE_CANCELED : this.#states.TASK_STATE_FAILED;
      return this.#status(t, ended, [textPart(`june: run "${t.runId}" ${state}: ${why}`)]);
    }
    const result = resultOf(trace, t.served);
    t.bus.publish(
      this.sdk.server.AgentEvent.artifactUpdate({
        taskId: t.runId,
        contextId: t.contextId,
        artifact: {
          artifactId: `${t.runId}-result`,
          name: 'result',
          description: `The output of the workflow ${t.served.name}.`,
          parts: [dataPart(result.structuredContent)],
          metadata: { runId: t.runId },
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: {},
      } as never),
    );
    this.#status(t, this.#states.TASK_STATE_COMPLETED, undefined);
  }

  /** Makes the task `input-required` with the request: a text saying what to answer, and the request as data. */
  async #askFor(t: TaskRun, request: ApprovalRequest, problem?: string): Promise<void> {
    const question = request.kind === 'question' ? request.question : undefined;
    const said = question
      ? `${question.prompt} Answer with a data part { "answer": <value> } that fits the schema.`
      : `Approve the call of the tool "${request.tool}" in ${request.step || 'the run'}? Its input: ${JSON.stringify(request.input)}. Answer with a data part { "approve": true } (with "input" to run it with other input), or { "approve": false, "reason": "..." }.`;
    const inputSchema = question ? undefined : await t.schemaOf(request.tool);
    this.#status(t, this.#states.TASK_STATE_INPUT_REQUIRED, [
      textPart(problem ? `${problem}\n\n${said}` : said),
      dataPart({
        kind: question ? 'question' : 'approval',
        key: request.key ?? request.id,
        tool: request.tool,
        input: request.input,
        step: request.step,
        ...(request.guard?.reason ? { reason: request.guard.reason } : {}),
        ...(inputSchema ? { inputSchema } : {}),
        ...(question ? { prompt: question.prompt, answerSchema: question.answerSchema } : {}),
        ...(problem ? { problem } : {}),
      }),
    ]);
  }

  #status(t: TaskRun, state: TaskState, parts: Part[] | undefined): void {
    this.#publishStatus(t.bus, t.runId, t.contextId, state, parts);
  }

  /** Ends a message's task at once, in `state` with `text` (nothing runs, or nothing more). */
  #settle(ctx: RequestContext, bus: ExecutionEventBus, state: TaskState, text: string): void {
    this.#publishStatus(bus, ctx.taskId, ctx.contextId, state, [textPart(text)]);
  }

  #publishStatus(
    bus: ExecutionEventBus,
    taskId: string,
    contextId: string,
    state: TaskState,
    parts: Part[] | undefined,
  ): void {
    bus.publish(
      this.sdk.server.AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state,
          message: parts ? agentMessage(this.#agent, taskId, contextId, parts) : undefined,
          timestamp: now(),
        },
        metadata: {},
      } as TaskStatusUpdateEvent),
    );
  }

  /** Resolves when the bus tells a state a client's message stops at: input-required, or an end. */
  #untilStop(bus: ExecutionEventBus): Promise<void> {
    const s = this.#states;
    const stops = new Set<TaskState>([
      s.TASK_STATE_INPUT_REQUIRED,
      s.TASK_STATE_COMPLETED,
      s.TASK_STATE_FAILED,
      s.TASK_STATE_CANCELED,
      s.TASK_STATE_REJECTED,
    ]);
    return new Promise((resolve) => {
      const listener = (event: AgentExecutionEvent) => {
        if (event.kind !== 'statusUpdate' || !stops.has(event.data.status!.state)) return;
        bus.off('event', listener);
        resolve();
      };
      bus.on('event', listener);
    });
  }

  /**
   * Keeps the task store up to date with what happens while no message of the client is in
   * progress (another source answered, the run ended): the SDK stores a task's events only
   * while a request of its client follows them.
   */
  #keepStored(t: TaskRun, ctx: RequestContext): void {
    let manager: InstanceType<A2aSdk['server']['ResultManager']> | undefined;
    let chain = Promise.resolve();
    t.bus.on('event', (event) => {
      if (t.executing > 0) {
        manager = undefined;
        return;
      }
      manager ??= new this.sdk.server.ResultManager(this.store, ctx.context);
      const m = manager;
      chain = chain.then(() => m.processEvent(event)).catch(() => {});
    });
  }
}

function now(): string {
  return new Date().toISOString();
}
