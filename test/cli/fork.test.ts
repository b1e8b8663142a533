// `june fork` end to end: a run recorded with a model script (a composite tool whose tool
// leaves a line in a side-effect file, and a deploy that needs approval) is listed, forked at
// the composite's tool result with a new value and run (the prefix's tool does not run
// again, the deploy does), forked at the approval with --no-start and run later with
// `june run --resume`, and forked at a model call with another model by id.
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { june, nodesOf, repoRoot, tempProject, traces } from './cli-harness.js';

const flow = `import { appendFileSync } from 'node:fs';
import { customProvider, tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { openai } from 'june/sdk/openai';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

const effects = process.env.SIDE_EFFECTS;
// the model a fork names by id: a scripted one, through the AI SDK's default provider
globalThis.AI_SDK_DEFAULT_PROVIDER = customProvider({
  languageModels: {
    'other-model': scriptedModel(
      {
        $comment: 'Test fixture: the other model of a fork.',
        steps: {
          release: [
            { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] },
            { text: 'Released by the other model.' },
          ],
        },
      },
      { name: 'other-model' },
    ),
  },
});
const fetchPage = tool({
  description: 'Fetch a page',
  inputSchema: z.object({ url: z.string() }),
  execute: async ({ url }) => {
    appendFileSync(effects, 'fetch ' + url + '\\n');
    return 'page of ' + url;
  },
});
const deploy = tool({
  description: 'Deploy the release',
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => {
    appendFileSync(effects, 'deploy ' + env + '\\n');
    return 'deployed to ' + env;
  },
});
const model = openai('gpt-5-mini');

export default function Release() {
  return (
    <Agent model={model}>
      <Tool name="deploy" value={deploy} />
      <Tool name="research" description="Research a topic" input={z.object({ topic: z.string() })}>
        {({ topic }) => (
          <Agent model={model}>
            <Tool name="fetch" value={fetchPage} />
            <Step id="dig" prompt={'Dig into ' + topic} />
          </Agent>
        )}
      </Tool>
      <Step id="release" prompt="Release 1.2" />
    </Agent>
  );
}
`;

const script = {
  $comment: 'Test fixture: scripted model turns for release.tsx.',
  steps: {
    release: [
      { toolCalls: [{ tool: 'research', input: { topic: 'prices' } }] },
      { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'Released 1.2.' },
    ],
    'research:dig': [
      { toolCalls: [{ tool: 'fetch', input: { url: 'https://x.test' } }] },
      { text: 'Found the prices.' },
    ],
  },
};

const project = tempProject();
project.write('release.tsx', flow);
project.write('release.script.json', JSON.stringify(script));
afterAll(() => project.remove());

const sideEffects = join(project.dir, 'side-effects.log');
const effects = () => {
  try {
    return readFileSync(sideEffects, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const env = { SIDE_EFFECTS: sideEffects };
const runIdOf = (stdout: string) => (JSON.parse(stdout.split('\n')[0]!) as { runId: string }).runId;
const traceOf = (runId: string) => traces(project.dir).get(`${runId}.json`)!;
/** Every node of a trace and of its child runs. */
function allNodes(trace: Parameters<typeof nodesOf>[0]): ReturnType<typeof nodesOf> {
  return nodesOf(trace).flatMap((node) => {
    const child = (node.output as { trace?: Parameters<typeof nodesOf>[0] } | undefined)?.trace;
    return [node, ...(node.kind === 'tool' && child ? allNodes(child) : [])];
  });
}

describe('june fork', () => {
  let recorded = '';

  it('records a run, then lists its records by number and name', async () => {
    const record = await june(
      ['run', 'release.tsx', '--script', 'release.script.json', '--approve', 'all', '--json'],
      project.dir,
      env,
    );
    expect(record.stderr).toBe('');
    expect(record.code).toBe(0);
    recorded = runIdOf(record.stdout);
    expect(effects()).toEqual(['fetch https://x.test', 'deploy prod']);

    const list = await june(['fork', recorded], project.dir, env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`run ${recorded}: 9 records to fork at\n`);
    expect(list.stdout.split('\n')).toHaveLength(12);
    const lines = list.stdout.split('\n');
    expect(lines).toContain('1. model release #0  answered (generate)');
    expect(lines).toContain(
      '3. tool fetch release#0.0/dig#0.0  fetch {"url":"https://x.test"} → "page of https://x.test"',
    );
    expect(lines).toContain('7. approval deploy release#1.0  approved');
    expect(list.stdout).toContain(`fork one: june fork ${recorded} --at <name or number>`);
  }, 60_000);

  it("forks at the composite tool's tool result with a new value: says what runs live, replays the prefix and runs the rest", async () => {
    const fork = await june(
      [
        'fork',
        recorded,
        '--at',
        'tool fetch release#0.0/dig#0.0',
        '--result',
        '"page says: sold out"',
        '--script',
        'release.script.json',
        '--approve',
        'all',
      ],
      project.dir,
      env,
    );
    expect(fork.code).toBe(0);
    // what replays and what runs live is progress, on stdout, not a `june:` problem
    const forkId = /^Run (\S+) forks run/m.exec(fork.stdout)?.[1];
    expect(fork.stderr).not.toContain('forks run');
    expect(fork.stdout).toContain(
      `forks run ${recorded} at tool fetch release#0.0/dig#0.0 (fetch {"url":"https://x.test"} → "page of https://x.test"): 2 recorded calls and answers replay`,
    );
    expect(fork.stdout).toContain(
      'after tool fetch release#0.0/dig#0.0 everything runs live; the recorded run had 3 model calls, 2 tool executions (research, deploy), 1 approval (asked again)',
    );
    expect(fork.stdout).toContain('resumed from its journal');
    expect(fork.stdout).toContain('Released 1.2.');
    // fetch is not run again; the deploy after the fork point is
    expect(effects()).toEqual(['fetch https://x.test', 'deploy prod', 'deploy prod']);
    const trace = traceOf(forkId!);
    expect(trace.status).toBe('succeeded');
    expect(trace.forkedFrom).toEqual({
      runId: recorded,
      record: 'tool fetch release#0.0/dig#0.0',
      change: { kind: 'result', result: 'page says: sold out' },
    });
    const nodes = allNodes(trace);
    expect(nodes.find((node) => node.name === 'fetch')?.output).toBe('page says: sold out');
    const models = nodes.filter((node) => node.kind === 'model');
    expect(models.filter((node) => node.replayed)).toHaveLength(2);
    expect(models.filter((node) => !node.replayed)).toHaveLength(3);
  }, 60_000);

  it('forks at the approval with --no-start, and `june run --resume` runs it later with its lineage', async () => {
    const made = await june(
      ['fork', recorded, '--at', '7', '--answer', 'deny', '--reason', 'not today', '--no-start'],
      project.dir,
      env,
    );
    expect(made.code).toBe(0);
    const forkId = made.stdout.trim();
    // stdout is the fork's id alone, for a script; what the fork does goes beside it
    expect(made.stderr).toContain(
      `Run ${forkId} forks run ${recorded} at approval deploy release#1.0`,
    );
    expect(traceOf(forkId)).toBeUndefined();
    // which workflow file starts it is said: the journal names it
    expect(made.stderr).toContain(`start it: june run release.tsx --resume ${forkId}\n`);
    const before = effects();
    const ran = await june(
      ['run', 'release.tsx', '--resume', forkId, '--script', 'release.script.json'],
      project.dir,
      env,
    );
    expect(ran.code).toBe(0);
    expect(effects()).toEqual(before);
    const trace = traceOf(forkId);
    expect(trace.forkedFrom).toMatchObject({
      runId: recorded,
      record: 'approval deploy release#1.0',
      change: { kind: 'answer', approved: false, reason: 'not today' },
    });
    const deploy = allNodes(trace).find((node) => node.name === 'deploy');
    expect(deploy?.status).toBe('denied');
  }, 60_000);

  it('forks at a model call with another model by id', async () => {
    const before = effects();
    const fork = await june(
      [
        'fork',
        recorded,
        '--at',
        'model release #1',
        '--model',
        'other-model',
        '--approve',
        'all',
        '--json',
      ],
      project.dir,
      env,
    );
    expect(fork.code).toBe(0);
    // the recorded run's script answers the other agents, not the one the new model makes
    expect(fork.stderr).toContain(
      `The fork's model calls are answered by the model script run ${recorded} was recorded with (--script <file> gives another), but for the agent whose call the fork changes: other-model makes that call and the agent's later ones.`,
    );
    expect(fork.stdout).toContain('"result":"Released by the other model."');
    expect(effects()).toEqual([...before, 'deploy staging']);
    const forkId = runIdOf(fork.stdout);
    expect(traceOf(forkId).forkedFrom?.change).toEqual({ kind: 'model', model: 'other-model' });
  }, 60_000);

  it('forks at a model call with other settings from it on: the changed call is made with them, the calls before as recorded', async () => {
    const fork = await june(
      [
        'fork',
        recorded,
        '--at',
        'model release #1',
        '--settings',
        '{"temperature":0.2,"maxOutputTokens":300}',
        '--script',
        'release.script.json',
        '--approve',
        'all',
        '--json',
      ],
      project.dir,
      env,
    );
    expect(fork.code).toBe(0);
    const forkId = runIdOf(fork.stdout);
    expect(traceOf(forkId).forkedFrom?.change).toEqual({
      kind: 'model',
      settings: { temperature: 0.2, maxOutputTokens: 300 },
    });
    const journal = readFileSync(
      join(project.dir, '.june', 'runs', forkId, 'journal.jsonl'),
      'utf8',
    )
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          JSON.parse(line) as { type: string; step?: string; index?: number; calls?: string[] },
      );
    const release = journal.filter(
      (record) =>
        record.type === 'model-call' && record.step === 'release' && !record.calls?.length,
    );
    // #0 is the recorded one, as it was; #1 on were made with the new settings
    expect(release.map((record) => record.index)).toEqual([0, 1, 2]);
    expect(JSON.stringify(release[0])).not.toContain('"temperature"');
    for (const record of release.slice(1)) {
      expect(JSON.stringify(record)).toContain('"temperature":0.2');
      expect(JSON.stringify(record)).toContain('"maxOutputTokens":300');
    }
    const unknown = await june(
      ['fork', recorded, '--at', 'model release #1', '--settings', '{"warmth":1}'],
      project.dir,
      env,
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('june: a fork\'s model settings have no setting "warmth"');
  }, 60_000);

  it('refuses a fork without a change, or with two', async () => {
    const none = await june(['fork', recorded, '--at', '1'], project.dir, env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^june: a fork makes one change at its record: pass one of --result/,
    );
    const unknown = await june(
      ['fork', recorded, '--at', 'tool nowhere', '--result', '1'],
      project.dir,
      env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('june: the run has no record "tool nowhere" to fork at');
    // an answer at a tool execution: the message names the flag that fits
    const misfit = await june(
      ['fork', recorded, '--at', 'tool fetch release#0.0/dig#0.0', '--answer', 'deny'],
      project.dir,
      env,
    );
    expect(misfit.code).not.toBe(0);
    expect(misfit.stderr).toMatch(/^june: a new approval answer does not fit the record/);
    expect(misfit.stderr).toContain('june fork --result <json>');
    // at an ordinary approval: an answer, or a result instead of the tool
    const atApproval = await june(
      ['fork', recorded, '--at', 'approval deploy release#1.0', '--result', '"x"'],
      project.dir,
      env,
    );
    expect(atApproval.code).toBe(2);
    expect(atApproval.stderr).toContain(
      'an approval takes another answer (answer; june fork --answer approve|deny) or a result given instead of the tool (output; june fork --output <json>)',
    );
    const help = await june(['fork', '--help'], project.dir);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      "at a tool's approval: the result given instead of the tool",
    );
    // the flags' hints say what each takes
    const settings = await june(
      ['fork', recorded, '--at', 'model release #1', '--settings', 'nope'],
      project.dir,
    );
    expect(settings.code).toBe(2);
    expect(settings.stderr).toMatch(
      /^june: --settings is not valid JSON \(.*\); settings are a JSON object, e\.g\. --settings '\{"temperature":0\.2\}'\.\n$/,
    );
    const allAgents = await june(
      ['fork', recorded, '--at', 'model release #1', '--all-agents'],
      project.dir,
    );
    expect(allAgents.code).toBe(2);
    expect(allAgents.stderr).toBe(
      'june: --all-agents goes with --model <id> or --settings <json> at a model call: every agent uses them from that call on.\n',
    );
    const withOutput = await june(
      ['fork', recorded, '--at', 'model release #1', '--all-agents', '--output', '"x"'],
      project.dir,
    );
    expect(withOutput.code).toBe(2);
    expect(withOutput.stderr).toContain('; it does not go with --output.');
  }, 60_000);

  it('lists the records as JSON with --json: one object per record, as june runs --json lists runs', async () => {
    const list = await june(['fork', recorded, '--json'], project.dir, env);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const points = list.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { n: number; name: string; type: string; what: string });
    expect(points.map((point) => point.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(points[0]).toMatchObject({
      n: 1,
      name: 'model release #0',
      type: 'model-call',
      what: 'answered (generate)',
    });
    expect(points[2]).toMatchObject({
      name: 'tool fetch release#0.0/dig#0.0',
      type: 'tool-call',
      what: 'fetch {"url":"https://x.test"} → "page of https://x.test"',
      record: { tool: 'fetch', input: { url: 'https://x.test' }, output: 'page of https://x.test' },
    });
    expect(points[6]).toMatchObject({ name: 'approval deploy release#1.0', type: 'approval' });
  }, 60_000);

  it("forks a run recorded with --script without --script: the recorded run's script answers the live part, not the workflow's model", async () => {
    const before = effects();
    // no OpenAI settings here: a call to the workflow's own model would fail the run
    const fork = await june(
      [
        'fork',
        recorded,
        '--at',
        'tool fetch release#0.0/dig#0.0',
        '--result',
        '"page says: sold out"',
        '--approve',
        'all',
      ],
      project.dir,
      env,
    );
    expect(fork.stderr).toBe('');
    expect(fork.code).toBe(0);
    const forkId = /^Run (\S+) forks run/m.exec(fork.stdout)![1]!;
    expect(fork.stdout).toContain(
      `The fork's model calls are answered by the model script run ${recorded} was recorded with`,
    );
    expect(fork.stdout).toContain(`model script ${join('.june', 'runs', forkId, 'script.json')}`);
    expect(fork.stdout).toContain('Released 1.2.');
    expect(effects()).toEqual([...before, 'deploy prod']);
    const models = allNodes(traceOf(forkId)).filter((node) => node.kind === 'model');
    expect(models.filter((node) => !node.replayed)).toHaveLength(3);
    expect(traceOf(forkId).status).toBe('succeeded');

    // made with --no-start, the fork keeps the script: june run --resume needs no --script
    const made = await june(
      ['fork', recorded, '--at', '7', '--answer', 'approve', '--no-start'],
      project.dir,
      env,
    );
    expect(made.code).toBe(0);
    const later = made.stdout.trim();
    const ran = await june(
      ['run', 'release.tsx', '--resume', later, '--approve', 'all'],
      project.dir,
      env,
    );
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('Released 1.2.');
    expect(effects()).toEqual([...before, 'deploy prod', 'deploy prod']);
  }, 60_000);

  it("forks at a tool's approval with --output: the value answers instead of the tool, which does not run", async () => {
    const before = effects();
    const fork = await june(
      ['fork', recorded, '--at', 'approval deploy release#1.0', '--output', '"deploy skipped"'],
      project.dir,
      env,
    );
    expect(fork.stderr).toBe('');
    expect(fork.code).toBe(0);
    expect(fork.stdout).toContain('answered instead of deploy: "deploy skipped"');
    expect(effects()).toEqual(before);
    const forkId = /^Run (\S+) forks run/m.exec(fork.stdout)![1]!;
    const deploy = allNodes(traceOf(forkId)).find((node) => node.name === 'deploy');
    expect(deploy?.output).toBe('deploy skipped');
  }, 60_000);

  it('says plainly when the change is what was recorded, and leaves counts of 0 out of its summary', async () => {
    const same = await june(
      [
        'fork',
        recorded,
        '--at',
        'approval deploy release#1.0',
        '--answer',
        'approve',
        '--no-start',
      ],
      project.dir,
      env,
    );
    expect(same.code).toBe(0);
    expect(same.stderr).toContain(
      `june: warning: the change is what run ${recorded} recorded at approval deploy release#1.0 (approved): the fork changes nothing there, and runs live what came after it with the same facts.\n`,
    );
    expect(same.stderr).toContain(
      'the recorded run had 1 model call, 1 tool execution (deploy) there, and the new answer may lead elsewhere.',
    );
    const last = await june(
      ['fork', recorded, '--at', 'model release #2', '--output', '"Not released."', '--no-start'],
      project.dir,
      env,
    );
    expect(last.code).toBe(0);
    expect(last.stderr).not.toContain('warning');
    expect(last.stderr).toContain(
      'the recorded run made no model call, tool execution or approval there, and the new output may lead elsewhere.',
    );
    expect(last.stderr).not.toMatch(/\b0 (model|tool)/);
    const second = await june(
      ['fork', recorded, '--at', '2', '--output', '"Dig elsewhere."', '--no-start'],
      project.dir,
      env,
    );
    expect(second.stderr).toContain(
      ': 1 recorded call or answer replays without a model call or a tool;',
    );
  }, 60_000);

  it('prints a resume line that takes the fork up again with the script it keeps, without naming that copy', async () => {
    const before = effects();
    // no terminal and --approve ask: the fork stops at the deploy's approval
    const fork = await june(
      ['fork', recorded, '--at', 'tool fetch release#0.0/dig#0.0', '--result', '"sold out"'],
      project.dir,
      env,
    );
    expect(fork.code).toBe(1);
    const forkId = /^Run (\S+) forks run/m.exec(fork.stdout)![1]!;
    expect(fork.stdout).toContain(`resume: june run release.tsx --resume ${forkId}\n`);
    expect(fork.stdout).not.toContain('script.json --resume');
    const resumed = await june(
      ['run', 'release.tsx', '--resume', forkId, '--approve', 'all'],
      project.dir,
      env,
    );
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(
      `model script ${join('.june', 'runs', forkId, 'script.json')}`,
    );
    expect(effects()).toEqual([...before, 'deploy prod']);
  }, 60_000);

  it("forks with --script over the recorded run's script: the script given wins", async () => {
    // the recorded run's turns, but a deploy to staging and other answers
    const other = structuredClone(script);
    other.$comment = 'Test fixture: other turns for a fork of release.tsx.';
    other.steps.release[1] = { toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }] };
    other.steps.release[2] = { text: 'Released by the other script.' };
    other.steps['research:dig'][1] = { text: 'Nothing found.' };
    project.write('other.script.json', JSON.stringify(other));
    const before = effects();
    const fork = await june(
      [
        'fork',
        recorded,
        '--at',
        'tool fetch release#0.0/dig#0.0',
        '--result',
        '"page says: sold out"',
        '--script',
        'other.script.json',
        '--approve',
        'all',
      ],
      project.dir,
      env,
    );
    expect(fork.stderr).toBe('');
    expect(fork.code).toBe(0);
    expect(fork.stdout).not.toContain('was recorded with');
    expect(fork.stdout).toContain('model script other.script.json');
    expect(fork.stdout).toContain('Released by the other script.');
    expect(effects()).toEqual([...before, 'deploy staging']);
  }, 60_000);

  it('checks its inputs before it makes the fork: a refused fork leaves nothing in the runs folder and says nothing of a fork', async () => {
    const runs = join(project.dir, '.june', 'runs');
    const before = readdirSync(runs).sort();
    project.write('bad-prices.json', '{"gpt-5-mini": "cheap"}');
    project.write('bad.script.json', '{"steps": 3}');
    project.write(
      'typed.tsx',
      `import { Agent, Step } from 'june';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';
export const props = z.object({ topic: z.string() });
export default function Typed({ topic }: { topic: string }) {
  return (
    <Agent model={scriptedModel({ steps: { go: [{ text: 'Went.' }] } })}>
      <Step id="go" prompt={'Go ' + topic} />
    </Agent>
  );
}
`,
    );
    const typed = await june(
      ['run', 'typed.tsx', '--props', '{"topic":"x"}', '--json'],
      project.dir,
    );
    expect(typed.code).toBe(0);
    const typedRun = runIdOf(typed.stdout);
    const known = readdirSync(runs).sort();
    const at = ['--at', 'tool fetch release#0.0/dig#0.0', '--result', '"x"'];
    const refused = [
      {
        args: ['fork', recorded, ...at, '--prices', 'bad-prices.json'],
        says: '--prices bad-prices.json',
      },
      { args: ['fork', recorded, ...at, '--script', 'bad.script.json'], says: 'bad.script.json' },
      { args: ['fork', recorded, ...at, '--script', 'missing.json'], says: 'missing.json' },
      {
        args: ['fork', typedRun, '--at', '1', '--output', '"x"', '--props', '{"topic":1}'],
        says: 'topic',
      },
      { args: ['fork', recorded, '--at', '1', '--result', '"x"'], says: 'does not fit the record' },
    ];
    for (const { args, says } of refused) {
      const fork = await june(args, project.dir, env);
      expect(fork.code, fork.stderr).toBe(2);
      expect(fork.stderr).toMatch(/^june: /);
      expect(fork.stderr).toContain(says);
      expect(fork.stdout + fork.stderr).not.toContain('forks run');
      expect(readdirSync(runs).sort()).toEqual(known);
    }
    // the recorded run's workflow file is gone: refused before the fork, not after
    renameSync(join(project.dir, 'typed.tsx'), join(project.dir, 'typed.moved.tsx'));
    const missing = await june(['fork', typedRun, '--at', '1', '--output', '"x"'], project.dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('june: cannot find the workflow file typed.tsx');
    expect(missing.stdout).not.toContain('forks run');
    expect(readdirSync(runs).sort()).toEqual(known);
    expect(known.filter((name) => !before.includes(name)).sort()).toEqual(
      [typedRun, `${typedRun}.json`].sort(),
    );
  }, 60_000);

  it("forks a thread's run as an alternative history: not a run of the thread, its script turns after the thread's runs before it", async () => {
    const thread = tempProject();
    try {
      // in the project: the fork runs the workflow file its journal names, from there
      const example = 'threads.tsx';
      thread.write(example, readFileSync(join(repoRoot, 'examples', 'threads.tsx'), 'utf8'));
      const threadScript = join(repoRoot, 'examples', 'threads.script.json');
      const say = (message: string) =>
        june(
          [
            'run',
            example,
            '--thread',
            'ana',
            '--props',
            JSON.stringify({ message }),
            '--script',
            threadScript,
            '--json',
          ],
          thread.dir,
        );
      const first = await say('Hi, my order A-1001 has not arrived.');
      expect(first.code).toBe(0);
      const second = await say('Can you check it again?');
      expect(second.code).toBe(0);
      const fork = await june(
        [
          'fork',
          runIdOf(second.stdout),
          '--at',
          'tool orderStatus reply#0.0',
          '--result',
          '"lost in transit"',
          '--json',
        ],
        thread.dir,
      );
      expect(fork.code).toBe(0);
      // the thread's first run used two turns and the fork's journal answers one: the fourth is the fork's
      expect(fork.stdout).toContain(
        '"result":"I checked A-1001 again: it is still on its way and arrives on 5 December."',
      );
      const forkId = runIdOf(fork.stdout);
      const shown = await june(['threads', 'show', 'ana', '--json'], thread.dir);
      const runs = (JSON.parse(shown.stdout) as { runs: Array<{ runId: string; order: number }> })
        .runs;
      expect(runs.map((run) => run.order)).toEqual([1, 2]);
      expect(runs.map((run) => run.runId)).not.toContain(forkId);
      // the thread's next run goes on after its own runs' turns, not the fork's
      const third = await say('Thanks, that is all.');
      expect(third.code).toBe(0);
      expect(third.stdout).toContain('"result":"You\'re welcome, Ana. Enjoy your order!"');
    } finally {
      thread.remove();
    }
  }, 60_000);

  it("a fork that leaves the recorded path: turns it never reaches are named as in the script file, and are no problem with the recorded run's own script", async () => {
    // answering the deploying model call with a text ends the step before its last turn
    const change = ['--at', 'model release #1', '--output', '"Released without a deploy."'];
    const given = await june(
      ['fork', recorded, ...change, '--script', 'release.script.json', '--approve', 'all'],
      project.dir,
      env,
    );
    expect(given.code).toBe(0);
    expect(given.stdout).toContain('Released without a deploy.');
    expect(given.stderr).toBe(
      'june: warning: the model script release.script.json has 1 turn that never ran: step "release" turn 3. ' +
        'Remove it from the script, or find why the workflow stopped before it.\n',
    );

    // with the script the recorded run kept, the turns of its path are expected to go unused
    const kept = await june(
      ['fork', recorded, ...change, '--strict', '--approve', 'all'],
      project.dir,
      env,
    );
    expect(kept.stderr).toBe('');
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('Released without a deploy.');
  }, 60_000);

  it('names a run it does not know, with the newest runs and the command that lists them', async () => {
    const unknown = await june(['fork', 'no-such-run'], project.dir, env);
    expect(unknown.code).toBe(1);
    const newest = readdirSync(join(project.dir, '.june', 'runs'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
      .reverse()
      .slice(0, 5);
    expect(unknown.stderr).toBe(
      `june: there is no run no-such-run in .june/runs (its newest: ${newest.join(', ')}); check the run id, or list every run with june runs.\n`,
    );
    // forking it says the same
    const fork = await june(['fork', 'no-such-run', '--at', '1', '--result', '1'], project.dir);
    expect(fork.stderr).toBe(unknown.stderr);
  }, 60_000);
});

describe('june fork of a run whose questions the script answered', () => {
  const ship = tempProject();
  afterAll(() => ship.remove());

  it("the fork's live questions are answered by the script's turn that its journal replays", async () => {
    const examples = join(repoRoot, 'examples', 'questions');
    const file = ship.write('ship.tsx', readFileSync(join(examples, 'ship.tsx'), 'utf8'));
    const shipScript = ship.write(
      'ship.script.json',
      readFileSync(join(examples, 'ship.script.json'), 'utf8'),
    );
    const recording = await june(['run', file, '--script', shipScript, '--json'], ship.dir);
    expect(recording.stderr).toBe('');
    expect(recording.code).toBe(0);
    const shipped = runIdOf(recording.stdout);

    // ask_notes is asked after the fork point: the script answers it, as in the recorded run
    const fork = await june(
      ['fork', shipped, '--at', 'approval ask_env ship#0.0', '--output', '"prod"'],
      ship.dir,
    );
    expect(fork.stderr).toBe('');
    expect(fork.code).toBe(0);
    expect(fork.stdout).toContain('Faster builds');
  }, 60_000);
});
