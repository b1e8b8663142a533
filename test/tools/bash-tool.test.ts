import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asSchema, generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BASH_TOOL_DEFAULT_INHERIT_ENV,
  bashTool,
  type BashTool,
  type BashToolInput,
} from 'june/tools';

const dirs: string[] = [];
const tempDir = (prefix = 'june-bash-') => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const run = (bash: BashTool, input: BashToolInput, abortSignal?: AbortSignal) =>
  bash.execute!(input, { toolCallId: 'x', messages: [], abortSignal });

/**
 * True while `pid` runs. A process that has exited but that its parent has not collected yet
 * (a zombie: after its bash was killed it belongs to init, which reaps at its own pace) is not
 * running; Linux tells the two apart in /proc/<pid>/stat.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false; // gone between the two looks
  }
}

/** Waits (bounded) until `path` exists: how a test learns that a command got going. */
async function waitForFile(path: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return readFileSync(path, 'utf8');
}

describe('bashTool() running commands', () => {
  it('returns the exit code, stdout and stderr', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), {
      command: 'echo out; echo err >&2; exit 3',
    });
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      timedOut: false,
      stdout: 'out\n',
      stderr: 'err\n',
      truncated: false,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports an unknown command as bash does (exit 127)', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), { command: 'june-no-such-command-xyz' });
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toContain('command not found');
  });

  it('runs in the configured cwd', async () => {
    const cwd = tempDir();
    const result = await run(bashTool({ cwd }), { command: 'pwd -P' });
    expect(result.stdout).toBe(`${realpathSync(cwd)}\n`);
  });

  it('fails with bash-spawn-failed, without naming the cwd, when the cwd does not exist', async () => {
    const cwd = join(tempDir(), 'missing-dir');
    const error = await run(bashTool({ cwd }), { command: 'true' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SystemError', code: 'bash-spawn-failed' });
    expect((error as Error).message).toMatch(/^june: .*cwd does not exist/);
    expect((error as Error).message).not.toContain(cwd);
  });

  it('gives stdin as empty', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), { command: 'cat; echo "read $?"' });
    expect(result.stdout).toBe('read 0\n');
  });
});

describe('bashTool() environment', () => {
  beforeEach(() => {
    process.env.JUNE_SECRET_TEST = 'parent-secret';
  });
  afterEach(() => {
    delete process.env.JUNE_SECRET_TEST;
  });
  const print = 'printf "%s" "${JUNE_SECRET_TEST-unset}"';

  it('does not pass the parent process variables on', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), { command: print });
    expect(result.stdout).toBe('unset');
  });

  it('passes what the env option adds', async () => {
    const result = await run(bashTool({ cwd: tempDir(), env: { JUNE_SECRET_TEST: 'given' } }), {
      command: print,
    });
    expect(result.stdout).toBe('given');
  });

  it('holds only the default pass-through variables, the env option, and what bash sets itself', async () => {
    const result = await run(bashTool({ cwd: tempDir(), env: { CI: '1' } }), { command: 'env -0' });
    const names = result.stdout
      .split('\0')
      .filter(Boolean)
      .map((line) => line.slice(0, line.indexOf('=')));
    const allowed = new Set([
      ...BASH_TOOL_DEFAULT_INHERIT_ENV,
      'CI',
      'PWD',
      'SHLVL',
      '_',
      'OLDPWD',
    ]);
    expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    expect(names).toContain('CI');
  });

  it('passes PATH through by default, so commands are found', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), { command: 'printf "%s" "$PATH"' });
    expect(result.stdout).toBe(process.env.PATH);
  });

  it('inherits nothing with inheritEnv: [], and env: { NAME: undefined } removes one variable', async () => {
    const printHome = { command: 'printf "%s" "${HOME-unset}"' };
    expect((await run(bashTool({ cwd: tempDir(), inheritEnv: [] }), printHome)).stdout).toBe(
      'unset',
    );
    expect(
      (await run(bashTool({ cwd: tempDir(), env: { HOME: undefined } }), printHome)).stdout,
    ).toBe('unset');
  });
});

describe('bashTool() timeouts and aborts', () => {
  it('stops a timed-out command and every process it started', async () => {
    const bash = bashTool({ cwd: tempDir(), timeoutMs: 500 });
    const result = await run(bash, { command: 'sleep 300 & echo $!; wait' });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' });
    const sleepPid = Number(result.stdout.trim());
    expect(sleepPid).toBeGreaterThan(0);
    expect(isRunning(sleepPid)).toBe(false);
  });

  it('sends SIGKILL after killGraceMs to processes that ignore SIGTERM', async () => {
    const bash = bashTool({ cwd: tempDir(), timeoutMs: 300, killGraceMs: 300 });
    const result = await run(bash, { command: "trap '' TERM; sleep 300 & echo $!; wait" });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(isRunning(Number(result.stdout.trim()))).toBe(false);
  });

  it('kills the process group when the call is aborted mid-command, then rejects with the reason', async () => {
    const cwd = tempDir();
    const controller = new AbortController();
    const pending = run(
      bashTool({ cwd }),
      { command: 'sleep 300 & echo $! > pid.tmp && mv pid.tmp pid; wait' },
      controller.signal,
    );
    const sleepPid = Number(await waitForFile(join(cwd, 'pid')));
    expect(isRunning(sleepPid)).toBe(true);
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toThrow('user cancelled');
    expect(isRunning(sleepPid)).toBe(false);
  });

  it('does not start a command when the signal is already aborted', async () => {
    const cwd = tempDir();
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(
      run(bashTool({ cwd }), { command: 'touch started' }, controller.signal),
    ).rejects.toThrow('too late');
    expect(existsSync(join(cwd, 'started'))).toBe(false);
  });

  it('ends background processes left running when the command exits', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), { command: 'sleep 300 & echo $!' });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(isRunning(Number(result.stdout.trim()))).toBe(false);
  });

  it('lets the model lower the timeout', async () => {
    const bash = bashTool({ cwd: tempDir(), timeoutMs: 20_000 });
    const result = await run(bash, { command: 'sleep 30', timeoutMs: 200 });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('clamps a model timeout above the configured one to the configured one', async () => {
    const bash = bashTool({ cwd: tempDir(), timeoutMs: 300 });
    const result = await run(bash, { command: 'sleep 30', timeoutMs: 600_000 });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(10_000);
    expect(bash.description).toContain('300 ms');
  });
});

describe('bashTool() output', () => {
  it('cuts a stream at maxOutputBytes and says which one and the cap', async () => {
    const bash = bashTool({ cwd: tempDir(), maxOutputBytes: 1000 });
    const one = await run(bash, { command: "head -c 5000 /dev/zero | tr '\\0' a; printf bb >&2" });
    expect(one.stdout).toBe('a'.repeat(1000));
    expect(one.stderr).toBe('bb');
    expect(one.truncated).toEqual({ streams: ['stdout'], maxOutputBytes: 1000 });

    const both = await run(bash, {
      command: "head -c 3000 /dev/zero | tr '\\0' a; head -c 3000 /dev/zero | tr '\\0' b >&2",
    });
    expect(both.stderr).toBe('b'.repeat(1000));
    expect(both.truncated).toEqual({ streams: ['stdout', 'stderr'], maxOutputBytes: 1000 });
  });

  it('keeps 64 KiB per stream by default and lets a command that prints more run to its end', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), {
      command: 'head -c 10000000 /dev/zero; echo done >&2',
    });
    expect(result.exitCode).toBe(0);
    expect(Buffer.byteLength(result.stdout)).toBe(65_536);
    expect(result.stderr).toBe('done\n');
    expect(result.truncated).toEqual({ streams: ['stdout'], maxOutputBytes: 65_536 });
  });

  it('never cuts a UTF-8 character in half', async () => {
    const bash = bashTool({ cwd: tempDir(), maxOutputBytes: 1001 });
    const result = await run(bash, { command: "printf 'é%.0s' $(seq 600)" });
    expect(result.stdout).toBe('é'.repeat(500));
  });

  it('returns binary output as JSON-serializable text', async () => {
    const result = await run(bashTool({ cwd: tempDir() }), {
      command: "head -c 2000 /dev/urandom; printf '\\0\\377'",
    });
    expect(result.exitCode).toBe(0);
    expect(typeof result.stdout).toBe('string');
    expect(() => encodeURIComponent(result.stdout)).not.toThrow(); // no lone surrogates
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

describe('bashTool() keeps cwd and env out of what is traced', () => {
  it('never puts them in the description, schema, input or result', async () => {
    const cwd = tempDir('june-bash-cwd-marker-');
    const token = 'tok-7f3a9c-june-marker';
    const bash = bashTool({ cwd, env: { JUNE_TOKEN: token } });
    const input = { command: 'echo hi; printf "%s" "${#JUNE_TOKEN}" >&2' };
    const result = await run(bash, input);
    expect(result.stderr).toBe(String(token.length)); // the command did get the variable
    const seen = [
      JSON.stringify(result),
      JSON.stringify(input),
      JSON.stringify(bash.description),
      JSON.stringify(await asSchema(bash.inputSchema).jsonSchema),
    ].join('\n');
    expect(seen).not.toContain(cwd);
    expect(seen).not.toContain(realpathSync(cwd));
    expect(seen).not.toContain(token);
  });

  it('rejects bad options by name, without quoting env values', () => {
    expect(() => bashTool({ timeoutMs: 0 })).toThrow(
      /^june: bashTool\(\): timeoutMs must be a whole number of ms/,
    );
    expect(() => bashTool({ maxOutputBytes: 1.5 })).toThrow(
      /maxOutputBytes must be a whole number of bytes/,
    );
    const error = (() => {
      try {
        bashTool({ env: { TOKEN: 'secret\0value' } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ name: 'WorkflowError', code: 'invalid-bash-option' });
    expect((error as Error).message).toContain('env.TOKEN');
    expect((error as Error).message).not.toContain('secret');
  });
});

describe('bashTool() in generateText', () => {
  const callBash = (command: string): LanguageModelV3GenerateResult => ({
    content: [
      {
        type: 'tool-call',
        toolCallId: 'call-1',
        toolName: 'bash',
        input: JSON.stringify({ command }),
      },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
    warnings: [],
  });

  it('asks for approval by default, showing the exact command, and runs nothing', async () => {
    const cwd = tempDir();
    const result = await generateText({
      model: new MockLanguageModelV3({ doGenerate: callBash('touch ran') }),
      tools: { bash: bashTool({ cwd }) },
      prompt: 'touch a file',
    });
    const request = result.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.toolCall.input).toEqual({ command: 'touch ran' });
    expect(result.content.some((part) => part.type === 'tool-result')).toBe(false);
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
  });

  it('runs without asking with needsApproval: false, and the model sees no cwd or env', async () => {
    const cwd = tempDir('june-bash-cwd-marker-');
    const token = 'tok-51b2e0-june-marker';
    const model = new MockLanguageModelV3({ doGenerate: callBash('touch ran && echo done') });
    const result = await generateText({
      model,
      tools: { bash: bashTool({ cwd, env: { JUNE_TOKEN: token }, needsApproval: false }) },
      prompt: 'touch a file',
    });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    const toolResult = result.content.find((part) => part.type === 'tool-result');
    expect(toolResult?.output).toMatchObject({ exitCode: 0, stdout: 'done\n' });
    expect(existsSync(join(cwd, 'ran'))).toBe(true);
    const traced = JSON.stringify([
      result.content,
      result.response.messages,
      model.doGenerateCalls[0]?.tools,
    ]);
    expect(traced).not.toContain(cwd);
    expect(traced).not.toContain(token);
  });
});
