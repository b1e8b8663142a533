// What a tool's model sees and what its record keeps: omitFromModel leaves fields out of the
// model's view only; bashTool() leaves out its durationMs that way. Nothing runs here.
import { describe, expect, it } from 'vitest';
import { bashTool, omitFromModel, type BashToolResult } from 'june/tools';

const result: BashToolResult = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  stdout: 'ok\n',
  stderr: '',
  truncated: false,
  durationMs: 37,
};

describe('omitFromModel', () => {
  it('gives the model an object result as JSON without the named fields, leaving the result as it was', () => {
    const output = { status: 200, elapsedMs: 81, requestId: 'req_9f2c', text: 'hi' };
    const toModel = omitFromModel('elapsedMs', 'requestId');
    expect(toModel({ output })).toEqual({ type: 'json', value: { status: 200, text: 'hi' } });
    expect(output).toEqual({ status: 200, elapsedMs: 81, requestId: 'req_9f2c', text: 'hi' });
  });

  it('gives a string as text, and anything else as JSON, unchanged', () => {
    const toModel = omitFromModel('elapsedMs');
    expect(toModel({ output: 'done' })).toEqual({ type: 'text', value: 'done' });
    expect(toModel({ output: [{ elapsedMs: 1 }] })).toEqual({
      type: 'json',
      value: [{ elapsedMs: 1 }],
    });
    expect(toModel({ output: 3 })).toEqual({ type: 'json', value: 3 });
    expect(toModel({ output: null })).toEqual({ type: 'json', value: null });
    expect(toModel({ output: undefined })).toEqual({ type: 'json', value: null });
  });
});

describe("bashTool(): the model's view of a result", () => {
  it('has everything but durationMs, which the result itself keeps', async () => {
    const bash = bashTool({ needsApproval: false });
    const seen = await bash.toModelOutput!({
      toolCallId: 'c1',
      input: { command: 'true' },
      output: result,
    });
    expect(seen).toEqual({
      type: 'json',
      value: {
        exitCode: 0,
        signal: null,
        timedOut: false,
        stdout: 'ok\n',
        stderr: '',
        truncated: false,
      },
    });
    expect(result.durationMs).toBe(37);
  });

  it('keeps what tells runs apart for a reason: a timeout, a signal, cut output', async () => {
    const bash = bashTool({ needsApproval: false });
    const stopped = {
      ...result,
      exitCode: null,
      signal: 'SIGTERM' as const,
      timedOut: true,
      truncated: { streams: ['stdout' as const], maxOutputBytes: 16 },
    };
    const seen = (await bash.toModelOutput!({
      toolCallId: 'c1',
      input: { command: 'x' },
      output: stopped,
    })) as {
      value: Record<string, unknown>;
    };
    expect(seen.value).toMatchObject({
      signal: 'SIGTERM',
      timedOut: true,
      truncated: { streams: ['stdout'] },
    });
    expect(seen.value).not.toHaveProperty('durationMs');
  });
});
