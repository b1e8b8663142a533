// The provider credentials in the environment are secrets whatever model a run uses. A
// workflow written for `openai(...)` runs under `june run --script` (a scripted model, no
// provider is called) and then under `--replay` of that run (the journal answers the model),
// with OPENAI_API_KEY, another provider's key, credentials in OPENAI_BASE_URL and a variable
// handed to <Bash> by name in the environment. Its tools print all of them. Every artifact
// the runs left (the CLI's output, --json events, traces, journals, Studio's API) is searched
// for each secret, as test/security/seeded-secrets.test.ts does for a run on a provider.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStudio } from '../../src/studio/index.js';
import { june, tempProject, type JuneProcess } from '../cli/cli-harness.js';

const secrets = {
  openaiKey: 'sk-proj-offline-secret-1111',
  anthropicKey: 'sk-ant-offline-secret-2222',
  baseUrlPassword: 'base-url-pass-3333',
  baseUrlQuery: 'base-url-query-4444',
  inherited: 'inherited-token-5555',
};

const env = {
  OPENAI_API_KEY: secrets.openaiKey,
  ANTHROPIC_API_KEY: secrets.anthropicKey,
  OPENAI_BASE_URL: `http://gateway:${secrets.baseUrlPassword}@127.0.0.1:9/v1?api-key=${secrets.baseUrlQuery}`,
  DEPLOY_TOKEN: secrets.inherited,
};

const workflow = `
import { stepCountIs, tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { Bash } from 'june/tools';
import { z } from 'zod';

const showEnv = tool({
  description: 'Shows the provider settings',
  inputSchema: z.object({}),
  execute: async () => ({
    openai: process.env.OPENAI_API_KEY,
    anthropic: process.env.ANTHROPIC_API_KEY,
    baseURL: process.env.OPENAI_BASE_URL,
  }),
});

export default function Offline() {
  return (
    <>
      <Agent model={openai('gpt-5-mini')} name="ops">
        <Tool name="show_env" value={showEnv} />
        <Step id="check" prompt="Check the settings" />
      </Agent>
      {/* one model call, then the command: its timing is not in any later request */}
      <Agent model={openai('gpt-5-mini')} name="deploy" stopWhen={stepCountIs(1)}>
        <Bash inheritEnv={['PATH', 'DEPLOY_TOKEN']} needsApproval={false} />
        <Step id="deploy" prompt="Deploy" />
      </Agent>
    </>
  );
}
`;

const script = {
  $comment: 'Test fixture: scripted turns for test/security/seeded-secrets-offline.test.ts',
  steps: {
    check: [
      { toolCalls: [{ tool: 'show_env', input: {} }] },
      { text: 'The settings are in place.' },
    ],
    deploy: [
      {
        toolCalls: [{ tool: 'bash', input: { command: 'echo "deploying with $DEPLOY_TOKEN"' } }],
      },
    ],
  },
};

const project = tempProject();
const runs: Record<string, JuneProcess> = {};
const studioResponses: string[] = [];

/** `june run offline.tsx` in `dir` with the seeded environment. */
const offlineRun = (dir: string, ...args: string[]) =>
  june(['run', 'offline.tsx', '--approve', 'all', ...args], dir, env);

/** The id of the one run in `dir` (its journal folder). */
function onlyRunId(dir: string): string {
  const [id, ...more] = readdirSync(join(dir, '.june', 'runs')).filter(
    (name) => !name.endsWith('.json'),
  );
  if (id === undefined || more.length > 0) throw new Error(`expected one run in ${dir}`);
  return id;
}

beforeAll(async () => {
  const jsonDir = project.folder('json');
  for (const dir of [project.dir, jsonDir]) {
    writeFileSync(join(dir, 'offline.tsx'), workflow);
    writeFileSync(join(dir, 'offline.script.json'), JSON.stringify(script));
  }
  [runs.script, runs.scriptJson] = await Promise.all([
    offlineRun(project.dir, '--script', 'offline.script.json'),
    offlineRun(jsonDir, '--script', 'offline.script.json', '--json'),
  ]);
  [runs.replay, runs.replayJson] = await Promise.all([
    offlineRun(project.dir, '--replay', onlyRunId(project.dir)),
    offlineRun(jsonDir, '--replay', onlyRunId(jsonDir), '--json'),
  ]);

  const assetsDir = project.folder('studio-assets');
  writeFileSync(join(assetsDir, 'index.html'), '<!doctype html><title>Studio</title>');
  for (const dir of [project.dir, jsonDir]) {
    const studio = await startStudio({ dir: join(dir, '.june', 'runs'), port: 0, assetsDir });
    try {
      const list = await (await fetch(`${studio.url}api/runs`)).text();
      studioResponses.push(list);
      for (const entry of (JSON.parse(list) as { runs: { runId: string }[] }).runs)
        studioResponses.push(
          await (await fetch(`${studio.url}api/runs/${encodeURIComponent(entry.runId)}`)).text(),
        );
    } finally {
      await studio.close();
    }
  }
}, 120_000);

afterAll(() => project.remove());

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
}

describe('a run on a scripted model, and its replay, with provider credentials in the environment', () => {
  test('ran as the script says: the tools printed the credentials, and the replay matched its recording', () => {
    for (const [name, run] of Object.entries(runs))
      expect({ name, code: run.code, stderr: run.stderr }).toEqual({
        name,
        code: 0,
        stderr: '',
      });
    expect(runs.script!.stdout).toContain('model script offline.script.json');
    expect(runs.replay!.stdout).toContain('replaying');
    // what the tools returned reached the records, redacted
    for (const run of Object.values(runs)) expect(run.stdout).toContain('[redacted]');
    const trace = [...filesUnder(join(project.dir, '.june')).entries()].find(([path]) =>
      path.endsWith('.json'),
    )![1];
    expect(trace).toContain('http://[redacted]@127.0.0.1:9/v1?[redacted]');
  });

  test('no credential is in the CLI output, the --json events, a trace, a journal or a Studio response', () => {
    const artifacts = new Map<string, string>([
      ...Object.entries(runs).flatMap(([name, run]) => [
        [`${name} stdout`, run.stdout] as [string, string],
        [`${name} stderr`, run.stderr] as [string, string],
      ]),
      ...filesUnder(join(project.dir, '.june')),
      ...filesUnder(join(project.dir, 'json', '.june')),
      ...studioResponses.map((text, i) => [`studio response ${i}`, text] as [string, string]),
    ]);
    // 4 runs: 4 traces and 4 journals; 2 Studio lists and 4 Studio traces
    expect([...artifacts.keys()].filter((name) => name.endsWith('journal.jsonl'))).toHaveLength(4);
    expect(studioResponses).toHaveLength(6);
    const leaks = [];
    for (const [name, text] of artifacts)
      for (const [kind, secret] of Object.entries(secrets))
        if (text.includes(secret)) leaks.push(`${kind} in ${name}`);
    expect(leaks).toEqual([]);
  });
});
