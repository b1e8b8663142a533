// The trace file of a run shows a call waiting for a person as soon as the run asks, not up
// to `minIntervalMs` later: `june approve`, `june runs` and Studio read the wait from the
// file, and a process killed with SIGKILL right after it asked writes nothing more.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import { Agent, run, Step, Tool, traceWriter, type Trace, type TraceNode } from 'june';
import { scriptedModel } from 'june/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { waitUntil } from '../mcp/support.js';

const deploy = tool({
  description: 'Deploy',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => `deployed to ${env}`,
});

describe('traceWriter and a call that waits', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'june-trace-wait-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the trace at once when a call starts to wait, within the interval', async () => {
    const model = scriptedModel({
      $comment: 'Test fixture: a call that waits for approval',
      steps: {
        go: [
          { text: 'Deploying.', toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
          { text: 'Done.' },
        ],
      },
    });
    // an hour between writes: only the first event's write and the wait's come before the answer
    const writer = traceWriter({ dir, minIntervalMs: 3_600_000 });
    const handle = run(
      <Agent model={model}>
        <Tool name="deploy" value={deploy} />
        <Step id="go" prompt="Deploy" />
      </Agent>,
      { consumers: [writer] },
    );
    const waiting = (): TraceNode | undefined => {
      try {
        const trace = JSON.parse(readFileSync(writer.paths[0]!, 'utf8')) as Trace;
        const find = (node: TraceNode): TraceNode | undefined =>
          node.kind === 'tool' && node.status === 'waiting'
            ? node
            : node.children.map(find).find(Boolean);
        return find(trace.root);
      } catch {
        return undefined; // not written yet
      }
    };
    for await (const event of handle.events) {
      if (event.type !== 'approval-request') continue;
      await waitUntil(() => waiting() !== undefined, 'the trace file to show the wait', 5_000);
      expect(waiting()).toMatchObject({ name: 'deploy', input: { env: 'prod' } });
      handle.approve(event.request.id);
    }
    expect((await handle.result).trace.status).toBe('succeeded');
    expect(JSON.parse(readFileSync(writer.paths[0]!, 'utf8'))).toMatchObject({
      status: 'succeeded',
    });
  });
});
