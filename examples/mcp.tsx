/**
 * MCP: an agent that uses the tools of an MCP server. The server is the "everything" reference
 * server (@modelcontextprotocol/server-everything), started over stdio when the run needs it
 * and stopped when the run ends. Its tools take the prefix everything_ and each call waits
 * for approval.
 *
 *   npx june inspect examples/mcp.tsx                                                   # lists <Everything>, starts nothing
 *   npx june run examples/mcp.tsx --script examples/mcp.script.json --approve all       # offline
 *   OPENAI_API_KEY=sk-... npx june run examples/mcp.tsx                                 # a real model
 */
import { createRequire } from 'node:module';
import { Agent, defineMCPServer, Namespace, RequireApproval, Step } from 'june';
import { openai } from 'june/sdk/openai';

// The server's entry script, installed with `npm i -D @modelcontextprotocol/server-everything`.
// (Without installing it: command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'].)
const serverScript = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

/** The everything server as a capability: one process per run, however many agents declare it. */
export const Everything = defineMCPServer({
  name: 'Everything',
  command: process.execPath,
  args: [serverScript, 'stdio'],
});

export default function McpTools() {
  return (
    <Agent
      model={openai('gpt-5-mini')}
      name="assistant"
      instructions="Answer with the tools you have; say what they returned."
    >
      <RequireApproval>
        <Namespace name="everything">
          <Everything />
        </Namespace>
      </RequireApproval>
      <Step id="echo" prompt="Have the server echo the words: hello from June" />
      <Step id="sum" prompt="Now add 19 and 23 with the server's tool, and give the result." />
    </Agent>
  );
}
