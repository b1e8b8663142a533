import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../helpers/fake-openai-server.js';
import { june, nodesOf, onlyTrace, repoRoot, tempProject } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'release.tsx');
const script = join(repoRoot, 'examples', 'release.script.json');
// eslint-disable-next-line no-control-regex -- an ANSI escape sequence
const ansi = /\u001b\[/;

describe('june run examples/release.tsx --script', () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  it('with --approve all: deploys, exits 0, and writes a trace where the deploy was approved automatically', async () => {
    const result = await june(
      ['run', example, '--script', script, '--approve', 'all'],
      project.dir,
    );

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ansi);
    expect(result.stdout).toContain('→ readFile {"path":"CHANGELOG.md"}');
    expect(result.stdout).toContain('✓ approved deploy (automatic)');
    expect(result.stdout).toContain('← deploy "Deployed to staging"');
    expect(result.stdout).toMatch(
      /✓ succeeded in \d+(\.\d)? m?s · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\)/,
    );
    // a scripted model has no price: the line says so rather than show $0
    expect(result.stdout).toMatch(/ out\) · cost unknown for 3 calls\n/);

    const trace = onlyTrace(project.dir);
    expect(result.stdout).toContain(`trace: ${join('.june', 'runs', `${trace.runId}.json`)}`);
    expect(trace.status).toBe('succeeded');
    expect(trace.workflow).toBe('release.tsx');
    const deploy = nodesOf(trace).find((node) => node.kind === 'tool' && node.name === 'deploy')!;
    expect(deploy.status).toBe('succeeded');
    expect(deploy.input).toEqual({ env: 'staging' });
    expect(deploy.output).toBe('Deployed to staging');
    expect(deploy.approval).toMatchObject({ status: 'approved', automatic: true });
    const readFile = nodesOf(trace).find(
      (node) => node.kind === 'tool' && node.name === 'readFile',
    )!;
    expect(readFile.output).toBe(readFileSync(join(repoRoot, 'examples', 'CHANGELOG.md'), 'utf8'));
  });

  it("with --prices: the scripted model is priced as the file says, and the summary line ends with the run's cost", async () => {
    const prices = join(project.dir, 'prices.json');
    writeFileSync(
      prices,
      JSON.stringify({ 'june:release.script': { inputPerMTok: 1, outputPerMTok: 10 } }),
    );
    const result = await june(
      ['run', example, '--script', script, '--approve', 'all', '--prices', prices],
      project.dir,
    );

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const calls = nodesOf(onlyTrace(project.dir)).filter((node) => node.kind === 'model');
    expect(calls.map((call) => call.price?.model)).toEqual(calls.map(() => 'june:release.script'));
    const input = calls.reduce((sum, call) => sum + call.usage!.inputTokens!, 0);
    const output = calls.reduce((sum, call) => sum + call.usage!.outputTokens!, 0);
    const cost = calls.reduce((sum, call) => sum + call.costUsd!, 0);
    expect(cost).toBeCloseTo(input * 1e-6 + output * 10e-6, 12);
    expect(result.stdout).toContain(
      ` out) · $${cost.toLocaleString('en-US', cost >= 0.01 ? { maximumFractionDigits: 4 } : { maximumSignificantDigits: 2 })}\n`,
    );
  });

  it('with --prices that price none of its models: warns, naming the models and the keys, and the cost is unknown', async () => {
    const prices = join(project.dir, 'prices.json');
    // the model's id is the script file's name without .json: release.script, not release
    writeFileSync(
      prices,
      JSON.stringify({ 'june:release': { inputPerMTok: 1, outputPerMTok: 10 } }),
    );
    const result = await june(
      ['run', example, '--script', script, '--approve', 'all', '--prices', prices],
      project.dir,
    );

    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'june: warning: --prices has no price for june:release.script (3 calls); its keys are "june:release". A key is "<provider>:<model id>" or the model id alone.\n',
    );
    expect(result.stdout).toMatch(/ out\) · cost unknown for 3 calls\n/);
  });

  it('with a --prices file that is not prices: refuses to start, naming the file and the price', async () => {
    const prices = join(project.dir, 'prices.json');
    writeFileSync(
      prices,
      JSON.stringify({ 'june:release.script': { inputPerMTok: 'cheap', outputPerMTok: 10 } }),
    );
    const result = await june(
      ['run', example, '--script', script, '--approve', 'all', '--prices', prices],
      project.dir,
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `june: --prices ${prices}: its prices "june:release.script".inputPerMTok is not a number of USD, 0 or more; give a JSON object of prices in USD per million tokens, such as {"openai:gpt-5-mini": {"inputPerMTok": 0.25, "outputPerMTok": 2}}.\n`,
    );
    expect(existsSync(join(project.dir, '.june', 'runs'))).toBe(false);
  });

  it('refuses --prices with --database, whose workers price the runs they take', async () => {
    const result = await june(
      ['run', example, '--database', 'postgres://127.0.0.1:9/none', '--prices', 'prices.json'],
      project.dir,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^june: --prices prices the model calls of a run in this process, and --database enqueues a run for the workers/,
    );
  });

  it('refuses --otel with --database, whose workers export the spans, and --trace without --follow', async () => {
    const otel = await june(
      ['run', example, '--database', 'postgres://127.0.0.1:9/none', '--otel-record-inputs'],
      project.dir,
    );
    expect(otel.code).toBe(2);
    expect(otel.stderr).toMatch(
      /^june: --otel-record-inputs exports the spans of a run in this process, and --database enqueues a run for the workers, .* leave out --otel-record-inputs\.\n$/,
    );
    const trace = await june(
      ['run', example, '--database', 'postgres://127.0.0.1:9/none', '--trace', 'out.json'],
      project.dir,
    );
    expect(trace.code).toBe(2);
    expect(trace.stderr).toBe(
      'june: --trace writes the trace of the run this command follows, and without --follow it only queues the run; add --follow, or leave out --trace.\n',
    );
    expect(existsSync(join(project.dir, 'out.json'))).toBe(false);
  });

  it('with --approve none: denies the deploy and the model is told so before its last turn', async () => {
    const result = await june(
      ['run', example, '--script', script, '--approve', 'none'],
      project.dir,
    );

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✗ denied deploy: denied by --approve none (automatic)');
    expect(result.stdout).not.toContain('Deployed to staging');

    const trace = onlyTrace(project.dir);
    const deploy = nodesOf(trace).find((node) => node.kind === 'tool' && node.name === 'deploy')!;
    expect(deploy.status).toBe('denied');
    expect(deploy.approval).toMatchObject({
      status: 'denied',
      reason: 'denied by --approve none',
      automatic: true,
    });
    const step = nodesOf(trace).find((node) => node.kind === 'step' && node.name === 'release')!;
    const denial = (step.messages as Array<{ role: string; content: Array<Record<string, any>> }>)
      .flatMap((message) => (message.role === 'tool' ? message.content : []))
      .find((part) => part.type === 'tool-result' && part.toolName === 'deploy');
    expect(denial?.output).toEqual({
      type: 'execution-denied',
      reason: 'denied by --approve none',
    });
    // The script's last turn (the answer after the deploy) still ran.
    expect(step.result).toBe(JSON.parse(readFileSync(script, 'utf8')).steps.release[2].text);
    expect(nodesOf(trace).filter((node) => node.kind === 'model')).toHaveLength(3);
  });

  it('with no terminal and --approve ask: fails at the first approval with a hint to pass --approve, and keeps the trace', async () => {
    const result = await june(['run', example, '--script', script], project.dir);

    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'june: the tool "deploy" in step "release" needs approval, but there is no terminal to ask at; pass --approve all to approve every request, or --approve none to deny them.',
    ]);
    const trace = onlyTrace(project.dir);
    expect(trace.status).toBe('aborted');
    expect(
      nodesOf(trace).some(
        (node) => node.kind === 'tool' && node.name === 'deploy' && node.output !== undefined,
      ),
    ).toBe(false);
  });

  it('--run-id of a run the runs folder has: refused before anything is written, naming --resume', async () => {
    const args = ['run', example, '--script', script, '--approve', 'all', '--run-id', 'myrun1'];
    expect((await june(args, project.dir)).code).toBe(0);
    const runs = join(project.dir, '.june', 'runs');
    const trace = readFileSync(join(runs, 'myrun1.json'));
    const journal = readFileSync(join(runs, 'myrun1', 'journal.jsonl'));

    const again = await june(args, project.dir);

    expect(again.code).toBe(2);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(
      `june: there is a run myrun1 in ${join('.june', 'runs')} already (its trace myrun1.json); --resume myrun1 takes that run up again; pass another --run-id, or none, for a new run.\n`,
    );
    expect(readFileSync(join(runs, 'myrun1.json'))).toEqual(trace);
    expect(readFileSync(join(runs, 'myrun1', 'journal.jsonl'))).toEqual(journal);
    expect(onlyTrace(project.dir).status).toBe('succeeded');

    // a run with a journal and no trace yet (a fork not started) is taken all the same
    mkdirSync(join(runs, 'fork1'));
    writeFileSync(join(runs, 'fork1', 'journal.jsonl'), journal);
    const fork = await june([...args.slice(0, -1), 'fork1'], project.dir);
    expect(fork.code).toBe(2);
    expect(fork.stderr).toBe(
      `june: there is a run fork1 in ${join('.june', 'runs')} already (its journal ${join('fork1', 'journal.jsonl')}); --resume fork1 takes that run up again; pass another --run-id, or none, for a new run.\n`,
    );
    expect(existsSync(join(runs, 'fork1.json'))).toBe(false);
    expect(readFileSync(join(runs, 'fork1', 'journal.jsonl'))).toEqual(journal);
  });

  it('--trace FILE writes the same trace there too', async () => {
    const result = await june(
      ['run', example, '--script', script, '--approve', 'all', '--trace', 'out/release-trace.json'],
      project.dir,
    );

    expect(result.code).toBe(0);
    const file = join(project.dir, 'out', 'release-trace.json');
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(onlyTrace(project.dir));
  });

  it('--json prints each run event as one line of JSON, in order, and nothing else', async () => {
    const result = await june(
      ['run', example, '--script', script, '--approve', 'all', '--json'],
      project.dir,
    );

    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    expect(events[0]).toMatchObject({ type: 'run-start', workflow: 'release.tsx' });
    expect(events.at(-1)).toMatchObject({ type: 'run-finish', status: 'succeeded' });
    const types = events.map((event) => event.type);
    for (const type of [
      'agent-start',
      'step-start',
      'text-delta',
      'tool-call',
      'tool-result',
      'approval-request',
      'approval-response',
      'step-finish',
    ]) {
      expect(types).toContain(type);
    }
    expect(types.indexOf('approval-request')).toBeLessThan(types.indexOf('approval-response'));
    expect(events.find((event) => event.type === 'approval-response')).toMatchObject({
      approved: true,
      automatic: true,
    });
    expect(onlyTrace(project.dir).runId).toBe(events[0]!.runId);
  });

  it('--json with --approve ask fails at the first approval request instead of prompting', async () => {
    const result = await june(['run', example, '--script', script, '--json'], project.dir);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^june: the tool "deploy" in step "release" needs approval, but --json does not prompt; pass --approve all .* --approve none/,
    );
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ type: 'run-finish', status: 'aborted' });
  });

  it('without --script, talks to the OpenAI-compatible server in OPENAI_BASE_URL', async () => {
    const server = await startFakeOpenAI();
    try {
      server.reply({
        toolCalls: [{ name: 'readFile', arguments: { path: 'CHANGELOG.md' } }],
        usage: { inputTokens: 100, outputTokens: 10 },
      });
      server.reply({
        toolCalls: [{ name: 'deploy', arguments: { env: 'staging' } }],
        usage: { inputTokens: 200, outputTokens: 10 },
      });
      server.reply({
        text: 'Deployed 1.2.0 to staging.',
        usage: { inputTokens: 300, outputTokens: 8 },
      });
      const result = await june(['run', example, '--approve', 'all'], project.dir, {
        OPENAI_BASE_URL: server.baseURL,
      });

      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Deployed 1.2.0 to staging.');
      // gpt-5-mini's price comes from the catalog: 600 input tokens at $0.25 and 28 output tokens at $2 per million
      expect(result.stdout).toMatch(
        /✓ succeeded in .* · 628 tokens \(600 in, 28 out\) · \$0\.00021\n/,
      );
      const calls = nodesOf(onlyTrace(project.dir)).filter((node) => node.kind === 'model');
      expect(calls.map((call) => call.price?.source)).toEqual(['catalog', 'catalog', 'catalog']);
      const cost = calls.reduce((sum, call) => sum + call.costUsd!, 0);
      expect(cost).toBeCloseTo(600 * 0.25e-6 + 28 * 2e-6, 12);
      expect(server.requests.filter((request) => request.path === '/v1/responses')).toHaveLength(3);
      expect(server.requests[0]!.body.model).toBe('gpt-5-mini');
    } finally {
      await server.close();
    }
  });
});
