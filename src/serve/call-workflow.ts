import type { CallContext, CallExtra } from './call-context.js';
import { ask, inputSchemaLookup } from './ask-caller.js';
import { progressOf } from './call-progress.js';
import type { McpServer } from './load-mcp-sdk.js';
import type { Served } from './served-workflow.js';
import { checkKeyProps, keyedRunId, startOrFind } from './start-or-find.js';
import { resultOf } from './tool-result.js';

/**
 * Runs one call: starts its run (or finds the run its idempotency key names: an ended
 * run's result is given again, a stopped one is resumed, a live one followed), asks the
 * caller about each request it waits for (when the client takes elicitation), reports its
 * steps (when it gave a progress token), and gives its result ({@link resultOf}). The
 * client cancelling the call (`extra.signal`) cancels the run.
 * @throws {WorkflowError} `serve-key-reused` for a key that named a call with other props
 *   (nothing starts); what starting, resuming or following the run throws.
 */
export async function callWorkflow(
  context: CallContext,
  server: McpServer,
  client: string,
  s: Served,
  props: Record<string, unknown>,
  key: string | undefined,
  extra: CallExtra,
): Promise<Record<string, unknown>> {
  const { host } = context;
  const runId = key === undefined ? undefined : keyedRunId(client, s.name, key, props);
  if (key !== undefined) await checkKeyProps(context, client, s.name, key, runId!);
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
