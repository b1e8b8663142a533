// The provider credentials June knows about are secrets whatever model a run uses: a run on
// a scripted model keeps OPENAI_API_KEY (set after June was imported) out of its records,
// and every variable June's sdk/ reads is on the list of known credential variables.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tool } from 'ai';
import { Agent, run, Step, Tool, memoryJournalStore } from 'june';
import { scriptedModel } from 'june/testing';
import { bashTool } from 'june/tools';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  configuredSecrets,
  KNOWN_KEY_VARIABLES,
  KNOWN_URL_VARIABLES,
  registerKnownCredentials,
} from '../../src/redaction/index.js';

const sdkDir = fileURLToPath(new URL('../../src/sdk/', import.meta.url));
const saved = new Map<string, string | undefined>();

/** Sets an environment variable for one test. */
function setEnv(name: string, value: string): void {
  if (!saved.has(name)) saved.set(name, process.env[name]);
  process.env[name] = value;
}

afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
});

describe('registerKnownCredentials', () => {
  test('registers provider keys and the secret parts of provider URLs; short and plain values stay', () => {
    registerKnownCredentials({
      OPENAI_API_KEY: ' sk-known-0001 ',
      ANTHROPIC_API_KEY: 'sk-ant-known-0002',
      GROQ_API_KEY: 'abc', // too short to hide anywhere
      OPENAI_BASE_URL: 'https://proxy:pass-known-0003@gateway.example/v1?key=query-known-0004',
      DEPLOY_NOTE: 'not-a-provider-0005',
    });
    expect(
      configuredSecrets.text(
        'sk-known-0001 sk-ant-known-0002 abc pass-known-0003 query-known-0004 not-a-provider-0005',
      ),
    ).toBe('[redacted] [redacted] abc [redacted] [redacted] not-a-provider-0005');
    expect(
      configuredSecrets.text(
        'https://proxy:pass-known-0003@gateway.example/v1?key=query-known-0004',
      ),
    ).toBe('https://[redacted]@gateway.example/v1?[redacted]');
    // a plain endpoint is no secret
    registerKnownCredentials({ OPENAI_BASE_URL: 'http://localhost:11434/v1' });
    expect(configuredSecrets.text('http://localhost:11434/v1')).toBe('http://localhost:11434/v1');
  });

  test('every environment variable June’s sdk/ reads is a known credential variable', () => {
    const known = new Set([...KNOWN_KEY_VARIABLES, ...KNOWN_URL_VARIABLES]);
    const read = new Set<string>();
    for (const name of readdirSync(sdkDir).filter((file) => file.endsWith('.ts'))) {
      // the code only: a docstring's example may name a variable of the reader's own
      const source = readFileSync(join(sdkDir, name), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const match of source.matchAll(
        /\benv\??\.([A-Z][A-Z0-9_]*)\b|\benv\[\s*'([A-Z][A-Z0-9_]*)'\s*\]|environmentVariableName:\s*'([A-Z][A-Z0-9_]*)'/g,
      ))
        read.add(match[1] ?? match[2] ?? match[3]!);
    }
    // the scan finds what June's OpenAI provider reads today
    expect(read).toContain('OPENAI_API_KEY');
    expect(read).toContain('OPENAI_BASE_URL');
    expect([...read].filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('a run whose model is not a provider', () => {
  test('keeps OPENAI_API_KEY, set after June was imported, out of its events, trace and journal', async () => {
    const key = 'sk-proj-scripted-run-7777';
    setEnv('OPENAI_API_KEY', key);
    const showKey = tool({
      description: 'Shows the key',
      inputSchema: z.object({}),
      execute: async () => `the key is ${process.env.OPENAI_API_KEY}`,
    });
    const model = scriptedModel({
      $comment: 'Test fixture: scripted turns for test/redaction/known-credentials.test.tsx',
      steps: {
        check: [{ toolCalls: [{ tool: 'show_key', input: {} }] }, { text: `Key: ${key}.` }],
      },
    });
    const journal = memoryJournalStore();
    const handle = run(
      <Agent model={model}>
        <Tool name="show_key" value={showKey} />
        <Step id="check" prompt="Show the key" />
      </Agent>,
      { journal },
    );
    const events: unknown[] = [];
    for await (const event of handle.log) events.push(event);
    const result = await handle.result;
    // the run itself got the real value; its records did not
    expect(result.steps.check).toBe(`Key: ${key}.`);
    for (const text of [
      JSON.stringify(events),
      JSON.stringify(result.trace),
      journal.text(handle.runId),
    ]) {
      expect(text).not.toContain(key);
      expect(text).toContain('the key is [redacted]');
    }
  });

  test('a <Bash> variable inherited by name is a secret like one given in env', async () => {
    setEnv('JUNE_TEST_INHERITED_TOKEN', 'inherited-secret-8888');
    const bash = bashTool({
      inheritEnv: ['PATH', 'JUNE_TEST_INHERITED_TOKEN'],
      needsApproval: false,
    });
    const model = scriptedModel({
      $comment: 'Test fixture: scripted turns for test/redaction/known-credentials.test.tsx',
      steps: {
        echo: [
          {
            toolCalls: [{ tool: 'bash', input: { command: 'echo "$JUNE_TEST_INHERITED_TOKEN"' } }],
          },
          { text: 'Echoed.' },
        ],
      },
    });
    const handle = run(
      <Agent model={model}>
        <Tool name="bash" value={bash} />
        <Step id="echo" prompt="Echo the token" />
      </Agent>,
    );
    const { trace } = await handle.result;
    const text = JSON.stringify(trace);
    expect(text).not.toContain('inherited-secret-8888');
    expect(text).toContain('[redacted]\\n');
  });
});
