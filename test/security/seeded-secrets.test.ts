// One `june run` of a workflow seeded with secrets in every place a secret reaches June: an
// MCP URL's credentials (failing to connect), MCP headers, the env of <Bash> and of an MCP
// server (a tool source), values the run redacts (tool outputs, --secret-props,
// --redact-env, --redact-pattern), and a provider error body that echoes the API key. Then
// every artifact the run left is searched for each secret: trace, journal, events (--json),
// the CLI's output, and Studio's API responses.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStudio } from '../../src/studio/index.js';
import { startFakeOpenAI, type FakeOpenAIServer } from '../helpers/fake-openai-server.js';
import { june, tempProject, type JuneProcess } from '../cli/cli-harness.js';
import { everythingScript } from '../mcp/support.js';

const secrets = {
  urlPassword: 'pw-secret-1111',
  urlQuery: 'query-secret-2222',
  urlFragment: 'frag-secret-2323',
  header: 'header-secret-3333',
  bashEnv: 'bash-secret-4444',
  mcpEnv: 'mcp-env-secret-5555',
  toolOutput: 'tool-secret-6666abcd',
  redactEnv: 'env-redacted-7777',
  secretProp: 'prop-secret-8888',
  apiKey: 'sk-key-secret-9999',
};

const workflow = `
import { Agent, Catch, Step, defineMCPServer } from 'june';
import { Bash } from 'june/tools';
import { openai } from 'june/sdk/openai';

const Remote = defineMCPServer({
  name: 'Remote',
  url: 'http://deploy:${secrets.urlPassword}@127.0.0.1:9/mcp?token=${secrets.urlQuery}#${secrets.urlFragment}',
  headers: { Authorization: 'Bearer ${secrets.header}' },
  timeoutMs: 5000,
});
const Everything = defineMCPServer({
  name: 'Everything',
  command: process.execPath,
  args: [${JSON.stringify(everythingScript)}, 'stdio'],
  env: { SERVICE_TOKEN: '${secrets.mcpEnv}' },
});

export default function Seeded({ region, apiToken }: { region: string; apiToken: string }) {
  return (
    <>
      <Catch fallback={() => null}>
        <Agent model={openai('gpt-5-mini')} name="remote">
          <Remote />
          <Step id="remote" prompt="Use the remote tools" />
        </Agent>
      </Catch>
      <Agent model={openai('gpt-5-mini')} name="worker">
        <Everything />
        <Bash env={{ DEPLOY_TOKEN: '${secrets.bashEnv}' }} needsApproval={false} />
        <Step id="work" prompt={\`Deploy to \${region} with the token \${apiToken}\`} />
      </Agent>
      <Catch fallback={() => null}>
        <Agent model={openai('gpt-5-mini')} name="failing">
          <Step id="fail" prompt="Say hello" />
        </Agent>
      </Catch>
    </>
  );
}
`;

/** The model's turns for one run: tools that print secrets, text that repeats them (split across deltas), a 401 echoing the key. */
function script(server: FakeOpenAIServer): void {
  server.reply(
    {
      toolCalls: [
        { name: 'get-env', arguments: {} },
        { name: 'bash', arguments: { command: `echo "$DEPLOY_TOKEN ${secrets.toolOutput}"` } },
      ],
    },
    {
      text: [
        'Done: bash-sec',
        `ret-4444, ${secrets.mcpEnv.slice(0, 8)}`,
        `${secrets.mcpEnv.slice(8)} and ${secrets.redactEnv} for ${secrets.secretProp}.`,
      ],
    },
    {
      error: {
        status: 401,
        message: `Incorrect API key provided: ${secrets.apiKey}.`,
        code: 'invalid_api_key',
      },
    },
  );
}

const project = tempProject();
const servers: FakeOpenAIServer[] = [];
const runs: { progress?: JuneProcess; json?: JuneProcess } = {};
const studioResponses: string[] = [];

async function seededRun(dir: string, extra: string[]): Promise<JuneProcess> {
  const server = await startFakeOpenAI();
  servers.push(server);
  script(server);
  const args = [
    'run',
    'seeded.tsx',
    '--approve',
    'all',
    '--props',
    '{"region":"eu-north"}',
    '--secret-props',
    `{"apiToken":"${secrets.secretProp}"}`,
  ];
  args.push('--redact-env', 'EXTRA_SECRET', '--redact-pattern', 'tool-secret-[0-9a-f]+', ...extra);
  return june(args, dir, {
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: secrets.apiKey,
    EXTRA_SECRET: secrets.redactEnv,
  });
}

beforeAll(async () => {
  project.write('seeded.tsx', workflow);
  const jsonDir = join(project.dir, 'json');
  mkdirSync(jsonDir);
  writeFileSync(join(jsonDir, 'seeded.tsx'), workflow);
  [runs.progress, runs.json] = await Promise.all([
    seededRun(project.dir, []),
    seededRun(jsonDir, ['--json']),
  ]);

  const assetsDir = project.folder('studio-assets');
  writeFileSync(join(assetsDir, 'index.html'), '<!doctype html><title>Studio</title>');
  const studio = await startStudio({ dir: join(project.dir, '.june', 'runs'), port: 0, assetsDir });
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
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  project.remove();
});

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
}

describe('a run seeded with secrets', () => {
  test('ran as the workflow says: the model saw the real values, the remote server failed, the provider refused the key', () => {
    for (const run of [runs.progress!, runs.json!]) expect(run.code, run.stderr).toBe(0);
    // what the model got back from the tools holds the secrets: redaction is for records, not for the run
    const sent = JSON.stringify(
      servers.map((server) => server.requests.map((request) => request.body)),
    );
    expect(sent).toContain(secrets.mcpEnv);
    expect(sent).toContain(secrets.bashEnv);
    expect(sent).toContain(secrets.toolOutput);
    expect(sent).toContain(secrets.secretProp);
    const trace = readFileSync(
      join(
        project.dir,
        '.june',
        'runs',
        `${readdirSync(join(project.dir, '.june', 'runs')).find((name) => name.endsWith('.json'))}`,
      ),
      'utf8',
    );
    expect(trace).toContain('mcp-connect-failed');
    expect(trace).toContain('Incorrect API key provided: [redacted]');
    expect(trace).toContain('http://[redacted]@127.0.0.1:9/mcp?[redacted]#[redacted]');
  });

  test('no secret is in the trace, the journal, the events, the CLI output or a Studio response', () => {
    const artifacts = new Map<string, string>([
      ['stdout', runs.progress!.stdout],
      ['stderr', runs.progress!.stderr],
      ['--json events', runs.json!.stdout],
      ['--json stderr', runs.json!.stderr],
      ...filesUnder(join(project.dir, '.june')),
      ...filesUnder(join(project.dir, 'json', '.june')),
      ...studioResponses.map((text, i) => [`studio response ${i}`, text] as [string, string]),
    ]);
    expect(artifacts.size).toBeGreaterThanOrEqual(10);
    expect([...artifacts.keys()].filter((name) => name.endsWith('journal.jsonl'))).toHaveLength(2);
    const leaks = [];
    for (const [name, text] of artifacts)
      for (const [kind, secret] of Object.entries(secrets))
        if (text.includes(secret)) leaks.push(`${kind} in ${name}`);
    expect(leaks).toEqual([]);
    expect(runs.json!.stdout).toContain('[redacted]');
  });

  test('run files are private: folders 0700, files 0600', () => {
    const june = join(project.dir, '.june');
    const modes = [
      june,
      ...readdirSync(june, { recursive: true }).map((name) => join(june, name as string)),
    ].map((path) => [path, statSync(path).mode & 0o777] as const);
    for (const [path, mode] of modes)
      expect({ path, mode: mode.toString(8) }).toEqual({
        path,
        mode: statSync(path).isDirectory() ? '700' : '600',
      });
  });
});
