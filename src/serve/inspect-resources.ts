import { errorMessage } from '../errors/error-message.js';
import type { InspectReport } from '../interpreter/inspect.js';
import type { CallContext } from './call-context.js';
import type { McpServer } from './load-mcp-sdk.js';
import { inspectOf } from './served-workflow.js';

/**
 * Registers the resources on a session's server: each workflow's `inspect()` report, as
 * JSON, at `june://workflows/<name>/inspect` (`resources/list`, `resources/read`). Reading
 * an unknown URI is an `InvalidParams` error, an inspection that fails an `InternalError`.
 */
export function registerResources(context: CallContext, server: McpServer): void {
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

/** The URI of a workflow's `inspect` resource: `june://workflows/<name>/inspect`. */
function inspectUri(name: string): string {
  return `june://workflows/${name}/inspect`;
}
