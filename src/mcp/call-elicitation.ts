import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { ElicitationRequest, ElicitResult } from '@ai-sdk/mcp';
import type { ToolExecutionOptions, ToolSet } from 'ai';
import type { AnswerCheck } from '../approvals/answer-check.js';
import type { ApprovalDecision } from '../approvals/approval-request.js';
import {
  callRequestsOf,
  RequestWithdrawal,
  type CallRequest,
  type CallRequests,
} from '../approvals/call-requests.js';
import { mapExecutes } from '../capabilities/map-executes.js';
import {
  IDEMPOTENCY_KEY,
  juneRequestOf,
  RELATED_META,
  type JuneFormFields,
} from './june-request-meta.js';

/** One tool call in flight on a connection. */
interface InFlight {
  tool: string;
  input: unknown;
  requests: CallRequests;
  /** The JSON-RPC ids of its `tools/call` requests (one, or two when a new session took it). */
  ids: Set<string | number>;
  /** How many elicitations without June's request it was asked (their names count them). */
  asked: number;
  /** Aborts when the call ends: what it still asks is withdrawn. */
  ended: AbortController;
}

/** The call whose `execute` runs now (its HTTP requests are made in it, and their streams read). */
const current = new AsyncLocalStorage<InFlight>();
/** Calls running in {@link current}: the storage is on only while one runs (async hooks cost every promise on Node 20 and 22). */
let running = 0;

/** The longest idempotency key a June server takes; a longer call key is sent as its hash. */
const MAX_KEY = 200;

/**
 * What a run's connection to one MCP server does with the server's elicitations: each is
 * asked as an approval request of the run, under the tool call it came up in (a request of
 * a served June workflow as that request, an approval or a question; any other server's
 * form as a question whose answer fills the form), and the answer goes back as the
 * elicitation's result. Each `tools/call` made from a run carries the call's key as its
 * idempotency key (`_meta["june/idempotency-key"]`), so a June server follows or resumes
 * the same served run when the calling run is resumed.
 *
 * An elicitation is matched to its call by the request it came with: the call whose HTTP
 * request stream brought it, the call its `_meta["june/related-request"]` names, or the one
 * call in flight. One that matches no call (several in flight, none named) is cancelled:
 * the server's request goes on waiting for its other sources.
 */
export class CallElicitation {
  readonly #calls = new Set<InFlight>();

  /** `tools` with each execution known as a call of this connection, its elicitations asked in the run. */
  tools(tools: ToolSet): ToolSet {
    return mapExecutes(tools, (execute, name) => (input, options: ToolExecutionOptions<any>) => {
      const requests = callRequestsOf(options);
      if (!requests) return execute(input, options);
      const call: InFlight = {
        tool: name,
        input,
        requests,
        ids: new Set(),
        asked: 0,
        ended: new AbortController(),
      };
      this.#calls.add(call);
      running++;
      const done = () => {
        this.#calls.delete(call);
        call.ended.abort(new RequestWithdrawal('the call that asked it ended first'));
        if (--running === 0) current.disable();
      };
      try {
        const outcome = current.run(call, () => Promise.resolve(execute(input, options)));
        return outcome.finally(done);
      } catch (error) {
        done();
        throw error;
      }
    });
  }

  /** `fetch` for the HTTP transport: a `tools/call` made in a call gets the call's key as its idempotency key. */
  fetch(base: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
    return (input, init) => {
      const call = current.getStore();
      if (call && init?.method === 'POST' && typeof init.body === 'string') {
        const body = keyed(init.body, call);
        if (body !== undefined) return base(input, { ...init, body });
      }
      return base(input, init);
    };
  }

  /** Answers one elicitation of the server: asked in the run, or cancelled when it belongs to no call. */
  async answer(request: ElicitationRequest): Promise<ElicitResult> {
    const { params } = request;
    const related = (params._meta as Record<string, unknown> | undefined)?.[RELATED_META];
    const calls = [...this.#calls];
    const call =
      current.getStore() ??
      calls.find((c) => c.ids.has(related as string | number)) ??
      (calls.length === 1 ? calls[0] : undefined);
    if (!call) return { action: 'cancel' };
    const june = juneRequestOf(params._meta);
    const check = june ? formCheck(june.form, params.requestedSchema) : undefined;
    const asked: CallRequest = june
      ? {
          name: june.name,
          tool: june.tool,
          input: june.input,
          ...(june.question ? { question: june.question } : {}),
          ...(check ? { check } : {}),
        }
      : {
          name: `elicitation#${call.asked++}`,
          tool: call.tool,
          input: call.input,
          question: {
            prompt: params.message,
            answerSchema: (params.requestedSchema ?? { type: 'object' }) as Record<string, unknown>,
          },
        };
    let decision: ApprovalDecision;
    try {
      decision = await call.requests.ask(asked, call.ended.signal);
    } catch {
      // the run was aborted, or the call ended first: the server's request goes on waiting
      return { action: 'cancel' };
    }
    return june ? filledForm(june.form, decision) : formAnswer(decision);
  }
}

/** A `tools/call` body with the call's key added to its `_meta`, and its id noted; undefined for any other body. */
function keyed(body: string, call: InFlight): string | undefined {
  let message: { method?: unknown; id?: unknown; params?: Record<string, unknown> };
  try {
    message = JSON.parse(body) as typeof message;
  } catch {
    return undefined;
  }
  if (message?.method !== 'tools/call' || typeof message.params !== 'object') return undefined;
  if (typeof message.id === 'string' || typeof message.id === 'number') call.ids.add(message.id);
  const key =
    call.requests.key.length <= MAX_KEY
      ? call.requests.key
      : createHash('sha256').update(call.requests.key).digest('hex');
  const meta = { ...(message.params._meta as object | undefined), [IDEMPOTENCY_KEY]: key };
  return JSON.stringify({ ...message, params: { ...message.params, _meta: meta } });
}

/** A served June workflow's form, filled with the run's answer. */
function filledForm(form: JuneFormFields, decision: ApprovalDecision): ElicitResult {
  if (form.kind === 'question') {
    if (decision.output === undefined) return { action: 'decline' };
    if (form.answer === 'fields') return { action: 'accept', content: decision.output as never };
    const answer = form.answer === 'field' ? decision.output : JSON.stringify(decision.output);
    return { action: 'accept', content: { answer } };
  }
  if (!decision.approved) {
    const reason =
      decision.reason ??
      (decision.output !== undefined
        ? `answered instead of the tool: ${JSON.stringify(decision.output)}`
        : undefined);
    return { action: 'accept', content: { approve: false, ...(reason ? { reason } : {}) } };
  }
  const content: Record<string, unknown> = { approve: true };
  const input = decision.input;
  if (input !== undefined && form.edit === 'json') content.input = JSON.stringify(input);
  if (input !== undefined && form.edit === 'fields' && typeof input === 'object' && input !== null)
    for (const field of form.editFields)
      if ((input as Record<string, unknown>)[field] !== undefined)
        content[field] = (input as Record<string, unknown>)[field];
  return { action: 'accept', content };
}

/** Any other server's form: the answer is its content; a denial declines it. */
function formAnswer(decision: ApprovalDecision): ElicitResult {
  const output = decision.output;
  if (output === undefined || typeof output !== 'object' || output === null)
    return { action: 'decline' };
  return { action: 'accept', content: output as Record<string, unknown> };
}

type Field = Record<string, unknown>;

/**
 * What the form's fields take, as a check of the answer that fills them: a served
 * workflow's server refuses a form whose content does not fit its fields, so an edit or an
 * answer that would not fit is refused where it is given, and the request goes on waiting.
 * Undefined for a form whose answer is JSON text (the served run checks that itself).
 */
function formCheck(form: JuneFormFields, schema: unknown): AnswerCheck | undefined {
  const fields = (schema as { properties?: Record<string, Field> } | undefined)?.properties;
  if (!fields) return undefined;
  const fitting = (names: string[]) => (value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return '$: expected an object';
    for (const name of names) {
      const problem = fieldProblem(`$.${name}`, (value as Field)[name], fields[name]);
      if (problem) return problem;
    }
    return undefined;
  };
  if (form.kind === 'approval')
    return form.edit === 'fields' ? { input: fitting(form.editFields) } : undefined;
  if (form.answer === 'fields') return { output: fitting(form.answerFields) };
  if (form.answer === 'field')
    return { output: (value) => fieldProblem('$', value, fields[form.answerFields[0]!]) };
  return undefined;
}

/** What is wrong with `value` for a primitive form field (its type, enum, bounds); undefined when it fits or is absent. */
function fieldProblem(path: string, value: unknown, field: Field | undefined): string | undefined {
  if (!field || value === undefined) return undefined;
  if (Array.isArray(field.enum) && !field.enum.includes(value))
    return `${path}: expected one of ${field.enum.map((v) => JSON.stringify(v)).join('|')}`;
  const type = field.type;
  if (type === 'string') {
    if (typeof value !== 'string') return `${path}: expected a string`;
    if (typeof field.minLength === 'number' && value.length < field.minLength)
      return `${path}: expected at least ${field.minLength} characters`;
    if (typeof field.maxLength === 'number' && value.length > field.maxLength)
      return `${path}: expected at most ${field.maxLength} characters`;
  }
  if (type === 'number' || type === 'integer') {
    if (typeof value !== 'number' || (type === 'integer' && !Number.isInteger(value)))
      return `${path}: expected ${type === 'integer' ? 'an integer' : 'a number'}`;
    if (typeof field.minimum === 'number' && value < field.minimum)
      return `${path}: expected at least ${field.minimum}`;
    if (typeof field.maximum === 'number' && value > field.maximum)
      return `${path}: expected at most ${field.maximum}`;
  }
  if (type === 'boolean' && typeof value !== 'boolean') return `${path}: expected a boolean`;
  return undefined;
}
