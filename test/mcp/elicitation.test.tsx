// Any MCP server's elicitation during a tool call is asked in the run as a question (its
// message the prompt, its form's schema the answer schema) under the call; the answer fills
// the form, a denial declines it. The server (test/mcp/http-server.ts) answers in JSON and
// sends its elicitation on its standalone stream, so the run finds the call as the one in
// flight.
import { Agent, defineMCPServer, run, Step, type RunHandle } from 'june';
import { afterEach, describe, expect, it } from 'vitest';
import { turnModel } from '../durable/support.js';
import { startMcpHttpServer, type TestMcpServer } from './http-server.js';
import { waitUntil } from './support.js';

describe("an MCP server's elicitation in a run", () => {
  let server: TestMcpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function greeting(answer: (handle: RunHandle, id: string) => void) {
    server = await startMcpHttpServer({ elicit: true });
    const Glossary = defineMCPServer({ name: 'Glossary', url: server.url });
    const model = turnModel({
      go: [{ toolCalls: [{ id: 'call-1', tool: 'greet', input: {} }] }, { text: 'greeted' }],
    });
    const handle = run(
      <Agent model={model}>
        <Glossary />
        <Step id="go" prompt="Greet the person" />
      </Agent>,
    );
    await waitUntil(() => handle.pendingApprovals.length > 0, 'the run asks the form');
    const [request] = handle.pendingApprovals;
    expect(request).toMatchObject({
      kind: 'question',
      tool: 'greet',
      step: 'go',
      key: `${handle.runId}/go#call-1/elicitation#0`,
      question: {
        prompt: 'What is your name?',
        answerSchema: { type: 'object', required: ['name'] },
      },
    });
    answer(handle, request!.id);
    const result = await handle.result;
    const call = result.trace.root.children[0]!.children[0]!.children.find(
      (node) => node.kind === 'tool',
    )!;
    return { result, call };
  }

  it('asks the form as a question; the answer is the form’s content', async () => {
    const { result, call } = await greeting((handle, id) =>
      handle.respond(id, { name: 'Ada' }, { answeredBy: 'ana' }),
    );
    expect(result.output).toBe('greeted');
    expect(call.output).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
    expect(call.children[0]!.approval).toMatchObject({
      status: 'responded',
      output: { name: 'Ada' },
      answeredBy: 'ana',
    });
  });

  it('a denial declines the form', async () => {
    const { call } = await greeting((handle, id) => handle.deny(id, 'not telling'));
    expect(call.output).toMatchObject({ content: [{ type: 'text', text: 'declined' }] });
    expect(call.children[0]!.approval).toMatchObject({ status: 'denied', reason: 'not telling' });
  });
});
