// A run that nothing follows (no consumer, no engine, no reader yet) keeps its events and
// builds its trace and readers' history only when asked. What a reader gets must not depend
// on that: a reader that starts after the result gets the same events, deep-equal, as a late
// reader of the same run made with a consumer following it from the start (every event
// published as it came), in both modes, with redaction on; and so do the trace, the result
// and the failures a run-finish carries.
import { tool } from 'ai';
import { Agent, RequireApproval, run, Step, Tool, type RunEvent, type RunOptions } from 'june';
import { scriptedModel } from 'june/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const secret = 'vault-value-31415';
const redact = { values: [secret], patterns: [/sk-[a-z]{16}/] };

const script = {
  steps: {
    plan: [
      {
        text: `Reading the vault, whose word is ${secret}.`,
        toolCalls: [{ tool: 'read', input: { shelf: 'top' } }],
      },
      {
        toolCalls: [
          { tool: 'deploy', input: { env: 'staging' } },
          { tool: 'wipe', input: { db: 'prod' } },
          { tool: 'broken' },
        ],
      },
      { toolCalls: [{ tool: 'research', input: { question: 'risks?' } }] },
      { text: `Done: the key sk-abcdefghijklmnop and ${secret} stay inside.` },
    ],
    'research:findings': [{ text: `No known risks; ${secret} was not needed.` }],
    review: [{ text: 'Looks fine.' }],
  },
};

function Vault() {
  const read = tool({
    description: 'Reads the vault',
    inputSchema: z.object({ shelf: z.string() }),
    execute: async ({ shelf }) => ({ shelf, word: secret, key: 'sk-abcdefghijklmnop' }),
  });
  const deploy = tool({
    description: 'Deploys',
    inputSchema: z.object({ env: z.string() }),
    execute: async ({ env }) => `deployed to ${env}`,
  });
  const wipe = tool({
    description: 'Wipes a database',
    inputSchema: z.object({ db: z.string() }),
    execute: async () => 'wiped',
  });
  const broken = tool({
    description: 'Always fails',
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error(`disk full near ${secret}`);
    },
  });
  const model = scriptedModel(script);
  return (
    <Agent model={model} instructions="You keep the vault.">
      <Tool name="read" value={read} />
      <Tool name="broken" value={broken} />
      <RequireApproval>
        <Tool name="deploy" value={deploy} />
        <Tool name="wipe" value={wipe} />
      </RequireApproval>
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }: { question: string }) => (
          <Agent model={model}>
            <Step id="findings" prompt={`Research: ${question}`} />
          </Agent>
        )}
      </Tool>
      <Step id="plan" prompt={`Open the vault (${secret})`} />
      <Step id="review" prompt="Review it" />
    </Agent>
  );
}

const policy: RunOptions['onApproval'] = (request) =>
  request.tool === 'deploy' ? true : { approved: false, reason: 'never in a release' };

async function readAll(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const read: RunEvent[] = [];
  for await (const event of events) read.push(event);
  return read;
}

/** One run, read after its result: followed by a consumer from the start, or by nothing. */
async function runThenRead(stream: boolean, followed: boolean) {
  const live: RunEvent[] = [];
  const handle = run(<Vault />, {
    runId: 'r-late',
    stream,
    redact,
    onApproval: policy,
    ...(followed ? { consumers: [{ event: (event: RunEvent) => live.push(event) }] } : {}),
  });
  const result = await handle.result;
  const trace = handle.trace();
  const events = await readAll(handle.events);
  return { result, trace, events, live };
}

/** Approval ids are random (the AI SDK's): numbered in order of appearance instead. */
function sameIds(value: unknown): unknown {
  const ids = new Map<string, string>();
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (typeof v !== 'string') return v;
    if (/^aitxt-/.test(v)) return ids.get(v) ?? (ids.set(v, `approval${ids.size}`), ids.get(v));
    return v;
  });
}

describe('a reader that starts after the result', () => {
  beforeEach(() => {
    // one clock for both runs, so every event's time and the trace's times are comparable as they are
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-07T12:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const stream of [true, false]) {
    it(`gets every event, deep-equal to the log built as the run went (${stream ? 'streaming' : 'batch mode'}, redacted)`, async () => {
      const eager = await runThenRead(stream, true);
      const lazy = await runThenRead(stream, false);

      expect(lazy.events.length).toBeGreaterThan(30);
      expect(lazy.events[0]!.type).toBe('run-start');
      expect(lazy.events.at(-1)).toMatchObject({ type: 'run-finish', status: 'succeeded' });
      // a child run (the composite tool's) and a failed tool are in it, and the run-finish's failures
      expect(lazy.events.some((e) => e.type === 'run-start' && e.runId === 'r-late.1')).toBe(true);
      expect(lazy.events.at(-1)).toHaveProperty('failures');
      expect(sameIds(lazy.events)).toStrictEqual(sameIds(eager.events));
      // the late reader's history of the followed run is the consumer's events, deltas joined
      expect(eager.live.filter((e) => e.type !== 'text-delta')).toStrictEqual(
        eager.events.filter((e) => e.type !== 'text-delta'),
      );

      expect(sameIds(lazy.trace)).toStrictEqual(sameIds(eager.trace));
      expect(sameIds(lazy.result)).toStrictEqual(sameIds(eager.result));
      expect(sameIds(lazy.result.trace)).toStrictEqual(sameIds(lazy.trace));
      // redaction held: no secret in events or trace, and the text is there, redacted
      for (const text of [JSON.stringify(lazy.events), JSON.stringify(lazy.result.trace)]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain('sk-abcdefghijklmnop');
      }
      const said = lazy.events
        .flatMap((e) => (e.type === 'text-delta' && e.step === 'plan' ? [e.delta] : []))
        .join('');
      expect(said).toContain('whose word is [redacted].');
      // the run's own values are the real ones
      expect(lazy.result.steps.plan).toContain(secret);
    });
  }

  it('a reader that starts while the run waits gets every event from the start, then each as it comes', async () => {
    const midway = async (followed: boolean) => {
      vi.setSystemTime(new Date('2026-12-07T12:00:00.000Z'));
      const handle = run(<Vault />, {
        runId: 'r-mid',
        redact,
        ...(followed ? { consumers: [{ event: () => {} }] } : {}),
      });
      // the run waits for a person to answer deploy and wipe: a reader starts there
      while (handle.pendingApprovals.length < 2) await new Promise((go) => setImmediate(go));
      vi.setSystemTime(new Date('2026-12-07T12:00:01.000Z'));
      const reader = readAll(handle.events);
      for (const request of handle.pendingApprovals)
        if (request.tool === 'deploy') handle.approve(request.id);
        else handle.deny(request.id, 'never in a release');
      const result = await handle.result;
      return { result, events: await reader };
    };
    const eager = await midway(true);
    const lazy = await midway(false);
    expect(lazy.events[0]!.type).toBe('run-start');
    expect(lazy.events.at(-1)).toMatchObject({ type: 'run-finish', status: 'succeeded' });
    expect(sameIds(lazy.events)).toStrictEqual(sameIds(eager.events));
    expect(sameIds(lazy.result)).toStrictEqual(sameIds(eager.result));
    expect(JSON.stringify(lazy.events)).not.toContain(secret);
  });
});
