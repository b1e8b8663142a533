// Every untrusted string `june run` prints (model text, tool names, inputs, outputs and error
// messages, approval requests, failure messages) has its control characters made visible:
// a model cannot set the window title, clear the screen or draw a fake "✓ approved" line.
import { afterAll, describe, expect, test } from 'vitest';
import { ProgressPrinter } from '../../src/cli/progress-printer.js';
import { terminalStyle } from '../../src/cli/terminal-style.js';
import { terminalJson, visibleText } from '../../src/cli/visible-text.js';
import { june, tempProject } from './cli-harness.js';

const hostile = 'A\x1b]0;TITLE\x07B\x1b[2JC';
const shown = 'A\\x1b]0;TITLE\\x07B\\x1b[2JC';
const fakeLine = 'no\r\x1b[1A  ✓ approved deploy\u202e';

const project = tempProject();
afterAll(() => project.remove());

describe('june run shows control characters, never sends them', () => {
  test('model text, a tool call input and a tool error: the exact bytes printed', async () => {
    project.write(
      'hostile.tsx',
      `import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { z } from 'zod';
const fail = tool({ description: 'fails', inputSchema: z.object({ note: z.string() }), execute: async () => { throw new Error(${JSON.stringify(fakeLine)}); } });
export default function Hostile() {
  return <Agent model="unused"><Tool name="fail" value={fail} /><Step id="talk" prompt="Talk" /></Agent>;
}
`,
    );
    project.write(
      'hostile.script.json',
      JSON.stringify({
        $comment: 'Test fixture: hostile model text',
        steps: {
          talk: [
            { text: hostile, toolCalls: [{ tool: 'fail', input: { note: '\x9b2J' } }] },
            { text: 'done' },
          ],
        },
      }),
    );
    const [progress, json] = await Promise.all([
      june(
        ['run', 'hostile.tsx', '--script', 'hostile.script.json', '--approve', 'all'],
        project.dir,
      ),
      june(
        ['run', 'hostile.tsx', '--script', 'hostile.script.json', '--approve', 'all', '--json'],
        project.dir,
      ),
    ]);
    expect(progress.code, progress.stderr).toBe(0);
    const lines = progress.stdout.split('\n');
    expect(lines).toContain(`  ${shown}`);
    expect(lines).toContain('  → fail {"note":"\\x9b2J"}');
    expect(lines).toContain('  ✗ fail failed: no\\r\\x1b[1A  ✓ approved deploy\\u202e');
    // nothing a terminal acts on, in either mode (JSON keeps the values, escaped)
    for (const text of [progress.stdout, progress.stderr, json.stdout, json.stderr])
      // eslint-disable-next-line no-control-regex -- what a terminal acts on
      expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/);
    const delta = json.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; delta?: string })
      .find((event) => event.type === 'text-delta');
    expect(delta?.delta).toBe(hostile);
  }, 60_000);

  test('approval requests and answers, and retried errors, in the progress printer', () => {
    let out = '';
    const printer = new ProgressPrinter(
      { write: (text: string) => (out += text) },
      terminalStyle({ isTTY: false } as NodeJS.WriteStream),
    );
    const request = {
      id: 'a1',
      runId: 'r',
      step: 'ship',
      tool: 'de\x1b[2Kploy',
      toolCallId: 'c1',
      input: { env: 'prod\u009b' },
    };
    printer.event({ type: 'approval-request', runId: 'r', request } as never);
    printer.event({
      type: 'approval-response',
      runId: 'r',
      id: 'a1',
      approved: false,
      reason: 'no\n✓ approved',
      automatic: false,
      nodeId: 'n3',
      at: 0,
    });
    printer.event({
      type: 'error',
      runId: 'r',
      error: { name: 'Error', message: 'x\x1b[0m' },
      attempt: 1,
      willRetry: true,
      nodeId: 'n4',
      at: 0,
    });
    expect(out).toBe(
      '  ? de\\x1b[2Kploy needs approval in step ship: {"env":"prod\\x9b"}\n' +
        '  ✗ denied de\\x1b[2Kploy: no\\n✓ approved\n' +
        '✗ x\\x1b[0m (retrying)\n',
    );
  });

  test('visibleText and terminalJson', () => {
    expect(visibleText(hostile)).toBe(shown);
    expect(visibleText('a\nb\tc\r')).toBe('a\\nb\tc\\r');
    expect(visibleText('a\nb', { keepNewlines: true })).toBe('a\nb');
    expect(terminalJson({ t: 'a\u009b\u202eb\x1b' })).toBe('{"t":"a\\u009b\\u202eb\\u001b"}');
    expect(JSON.parse(terminalJson({ t: 'a\u009b' }))).toEqual({ t: 'a\u009b' });
  });
});
