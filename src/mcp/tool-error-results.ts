import type { ToolExecutionOptions, ToolSet } from 'ai';
import { SystemError } from '../errors/june-error.js';

/** The part of an MCP `CallToolResult` June reads to tell a failed call. */
interface CallToolResult {
  isError?: boolean;
  content?: Array<{ type?: string; text?: unknown }>;
}

/**
 * `tools` of an MCP server with every call the server answers with `isError: true` (the MCP
 * spec's failed call: the tool ran and reports a failure) thrown as an `mcp-tool-failed`
 * error, whose message holds the text the server sent. `@ai-sdk/mcp` hands such a result
 * back as an ordinary output, so the trace, Studio, spans and the `noErrors()` scorer showed
 * a success; thrown, it is the tool's error everywhere, and the model still reads the text
 * (as the tool's error).
 *
 * @param server how messages name the server: `the MCP server <Docs>`.
 */
export function failedCallsThrown(tools: ToolSet, server: string): ToolSet {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      tool.execute
        ? {
            ...tool,
            execute: async (input: unknown, options: ToolExecutionOptions<any>) => {
              const result = (await tool.execute!(input, options)) as unknown;
              if (!isErrorResult(result)) return result;
              throw new SystemError(
                'mcp-tool-failed',
                `june: ${server} answered the call to "${name}" with an error: ${errorText(result)}`,
              );
            },
          }
        : tool,
    ]),
  ) as ToolSet;
}

function isErrorResult(result: unknown): result is CallToolResult {
  return (
    typeof result === 'object' && result !== null && (result as CallToolResult).isError === true
  );
}

/** The text parts of a failed call's content, or a note that it sent none. */
function errorText(result: CallToolResult): string {
  const texts = (result.content ?? [])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string);
  return texts.length > 0 ? texts.join('\n') : '(the server sent no text)';
}
