// An MCP call the server answers with `isError: true` is a failed call (the MCP spec's tool
// error): the trace, the run's events and the noErrors() scorer show it failed, and the model
// still reads the server's text, as the tool's error. A real MCP server over stdio.
import { fileURLToPath } from 'node:url';
import { Agent, Step, defineMCPServer, run, type RunEvent } from 'june';
import { noErrors } from 'june/evals';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';
import { traceFailureList } from '../../src/trace/index.js';
import { toolResults } from '../helpers/mock-stream-model.js';

const script = fileURLToPath(new URL('../fixtures/mcp/dotted-names-server.mjs', import.meta.url));
const Failing = defineMCPServer({
  name: 'Ops',
  command: process.execPath,
  args: [script, '--failing'],
});

describe('an MCP result with isError: true', () => {
  test('fails the call in the trace, the events and noErrors(); the model reads the text as the error', async () => {
    const model = scriptedModel({
      steps: {
        ship: [
          { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
          { text: 'Could not deploy.' },
        ],
      },
    });
    const handle = run(
      <Agent model={model}>
        <Failing />
        <Step id="ship" prompt="Deploy to prod" />
      </Agent>,
    );
    const events: RunEvent[] = [];
    for await (const event of handle.events) events.push(event);
    const result = await handle.result;

    expect(result.output).toBe('Could not deploy.');
    const [failure, ...more] = traceFailureList(result.trace.root);
    expect(more).toEqual([]);
    expect(failure).toMatchObject({
      name: 'deploy',
      error: {
        code: 'mcp-tool-failed',
        message:
          'june: the MCP server <Ops> answered the call to "deploy" with an error: no deploys to prod on Fridays',
      },
    });
    expect(events.some((event) => event.type === 'tool-error')).toBe(true);
    expect(events.some((event) => event.type === 'tool-result')).toBe(false);
    const [seen] = toolResults(model.calls[1]!.prompt);
    expect(JSON.stringify(seen!.output)).toContain('no deploys to prod on Fridays');
    const scored = await noErrors().scorer({
      input: {},
      output: { status: 'succeeded', trace: result.trace } as never,
    } as never);
    expect(scored.score).toBe(0);
  });
});
