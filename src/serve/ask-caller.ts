import type { ApprovalRequest } from '../approvals/approval-request.js';
import { errorMessage } from '../errors/error-message.js';
import { JuneError } from '../errors/june-error.js';
import type { CallContext, CallExtra } from './call-context.js';
import {
  answerOfReply,
  elicitationFor,
  type ElicitationReply,
  type FormShape,
} from './elicitation-form.js';
import {
  RELATED_META,
  REQUEST_META,
  type JuneFormFields,
  type JuneRequestMeta,
} from '../mcp/june-request-meta.js';
import type { McpServer } from './load-mcp-sdk.js';
import { inspectOf, type Served } from './served-workflow.js';

/**
 * Asks the caller about one waiting request, through elicitation, until it answers (its
 * answer given to the host as `source: 'mcp'`, by the client's name), the request is
 * answered another way or withdrawn (`signal`: the elicitation is cancelled), or the client
 * cancels or times out (the request waits for other sources). An answer the run refuses
 * (an edit that does not fit the tool's schema) is asked again with the run's message, up
 * to 5 times in all. Never throws: a request it cannot ask about waits for other sources.
 */
export async function ask(
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
      const _meta = {
        [REQUEST_META]: requestMeta(request, shape, attempt),
        [RELATED_META]: extra.requestId,
      };
      reply = (await server.elicitInput({ mode: 'form', ...form, _meta } as never, {
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

/**
 * The input schema of a tool of the workflow, by name, from `inspect()` with details (once,
 * when first asked); undefined for a tool it does not find, or when the inspection fails.
 */
export function inputSchemaLookup(
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

/**
 * What an elicitation asks, for a caller that is a June run itself: the request (its key
 * within the run, the tool and input, or the question) and how the form's fields hold the
 * answer, so the caller can ask its own people and fill the form.
 */
function requestMeta(request: ApprovalRequest, shape: FormShape, attempt: number): JuneRequestMeta {
  const key = request.key ?? request.id;
  // asked again (the answer did not fit): a name of its own, so a caller's record of the
  // refused answer is not given again
  const name = key.slice(key.indexOf('/') + 1) + (attempt > 0 ? `~${attempt + 1}` : '');
  const form: JuneFormFields =
    shape.kind === 'approval'
      ? { kind: 'approval', edit: shape.edit, editFields: shape.editFields }
      : { kind: 'question', answer: shape.answer, answerFields: shape.answerFields };
  return {
    name,
    tool: request.tool,
    input: request.input,
    step: request.step,
    ...(request.kind === 'question' && request.question ? { question: request.question } : {}),
    form,
  };
}
