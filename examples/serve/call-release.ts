/**
 * Another agent calling a workflow that `june serve` serves, with the official MCP client
 * (`@modelcontextprotocol/sdk`): it declares elicitation, so the deploy's approval is asked
 * here, and answers it; progress notifications show the run's steps.
 *
 *   npx june serve examples/release.tsx --script examples/release.script.json
 *   npx tsx examples/serve/call-release.ts http://127.0.0.1:3400/mcp <the token it printed>
 */
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** Calls the served `release` tool once, approving what it asks; its result's text. */
export async function callRelease(
  url: string,
  token: string,
  log: (line: string) => void = console.log,
): Promise<string> {
  const client = new Client(
    { name: 'release-bot', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request): Promise<ElicitResult> => {
    log(`asked: ${request.params.message}`);
    // a person (or a policy of this agent) decides; here: approve as the model asked
    return { action: 'accept', content: { approve: true } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const result = await client.callTool(
      // the same key after a lost connection or a restarted server finds the same run
      { name: 'release', arguments: {}, _meta: { 'june/idempotency-key': 'release-1.2.0' } },
      undefined,
      {
        onprogress: (progress) => log(`progress: ${progress.message}`),
        timeout: 10 * 60_000, // a call lasts as long as its approvals wait
      },
    );
    const [first] = result.content as { type: string; text?: string }[];
    const text = first?.text ?? '';
    log(`${result.isError ? 'failed' : 'result'}: ${text}`);
    return text;
  } finally {
    await client.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, token] = process.argv.slice(2);
  if (!url || !token) {
    console.error('usage: tsx examples/serve/call-release.ts <url> <token>');
    process.exit(2);
  }
  await callRelease(url, token);
}
