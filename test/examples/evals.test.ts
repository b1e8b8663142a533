// examples/evals through the eval runner, as CI runs it: evalite runs the release workflow
// over the dataset of changelogs offline, prints each case's scores, and keeps with each
// case the link to its June trace; a planted regression (a model that deploys to prod)
// fails its scorer, the threshold and the comparison with the good run. The runs are the
// commands docs/evals.md gives for the example, run as written from its folder.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trace } from 'june';
import type { EvalResults, WorkflowEvalOutput } from 'june/evals';

const exampleDir = fileURLToPath(new URL('../../examples/evals/', import.meta.url));
const evaliteBin = fileURLToPath(
  new URL('../../examples/evals/node_modules/evalite/dist/bin.js', import.meta.url),
);
const cliPath = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));
const docsPath = fileURLToPath(new URL('../../docs/evals.md', import.meta.url));
const scorers = ['staging only', 'asked first', 'answer', 'tools called', 'steps', 'no errors'];
const caseIds = ['patch', 'minor', 'major', 'hotfix'];

const out = mkdtempSync(join(tmpdir(), 'june-evals-example-'));
const runIds: string[] = [];
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  // the cases' runs, written to the example's .june/runs as a user's would be
  for (const runId of runIds) {
    rmSync(join(exampleDir, '.june/runs', `${runId}.json`), { force: true });
    rmSync(join(exampleDir, '.june/runs', runId), { recursive: true, force: true });
  }
});

/** `evalite run` in the example's folder, as `npx evalite run` runs it there. */
function evalite(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [evaliteBin, 'run', ...args], {
    cwd: exampleDir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  return { code: result.status, stdout: stripAnsi(result.stdout), stderr: result.stderr };
}

const shellEnv = {
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

/**
 * The commands docs/evals.md gives for the example (the shell block that starts with
 * `cd examples/evals`), without that `cd` and their comments, their `/tmp/` files in `out`.
 */
function documentedCommands(): string[] {
  const docs = readFileSync(docsPath, 'utf8');
  const block = /```sh\ncd examples\/evals\n([\s\S]*?)```/.exec(docs)?.[1];
  if (block === undefined) throw new Error('docs/evals.md has no block starting cd examples/evals');
  return block
    .trim()
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').replaceAll('/tmp/', `${out}/`));
}

/** A documented command, through the shell, in the example's folder, to its end. */
function shell(command: string) {
  const result = spawnSync('sh', ['-c', command], {
    cwd: exampleDir,
    encoding: 'utf8',
    timeout: 120_000,
    env: shellEnv,
  });
  return { code: result.status, stdout: stripAnsi(result.stdout), stderr: result.stderr };
}

/**
 * A documented command that serves (Studio), on a free port: the address it prints, and its
 * HTTP answer to `path` there, before it is stopped.
 */
async function served(command: string, path: string) {
  const child = spawn('sh', ['-c', `exec ${command} --port 0`], {
    cwd: exampleDir,
    env: shellEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const closed = new Promise((resolve) => child.on('close', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(output)?.[0];
        if (found) resolve(found);
      });
      child.on('close', () => reject(new Error(`${command} ended: ${output}`)));
    });
    const response = await fetch(new URL(path, url));
    return { output, status: response.status, body: await response.text() };
  } finally {
    child.kill();
    await closed;
  }
}

/** The rows of evalite's results table: each column's text, its wrapped lines joined. */
function tableRows(stdout: string): Array<{ cells: string[] }> {
  const rows: Array<{ cells: string[] }> = [];
  let current: string[][] | undefined;
  for (const line of stdout.split('\n')) {
    if (/^[╔╟╚]/.test(line)) {
      if (current) rows.push({ cells: current.map((parts) => parts.join('\n')) });
      current = /^[╔╟]/.test(line) ? [] : undefined;
      continue;
    }
    if (!current || !line.startsWith('║')) continue;
    line
      .split(/[║│]/)
      .slice(1, -1)
      .forEach((cell, index) => (current![index] ??= []).push(cell.trim()));
  }
  return rows.slice(1); // the header row
}

type CaseRow = { caseId: string; scores: string; trace: string; score: string };
const caseRows = (stdout: string): Map<string, CaseRow> =>
  new Map(
    tableRows(stdout).map(({ cells }) => {
      const [caseId, scores, trace, score] = cells.map((cell) => cell.trim());
      return [
        caseId!,
        { caseId: caseId!, scores: scores!, trace: trace!.replace(/\n/g, ''), score: score! },
      ];
    }),
  );

function resultsOf(path: string) {
  const results = JSON.parse(readFileSync(path, 'utf8')) as EvalResults;
  expect(results.evals.map((evaluation) => evaluation.name)).toEqual(['release']);
  const cases = new Map(
    results.evals[0]!.results.map((result) => {
      const output = result.output as WorkflowEvalOutput;
      runIds.push(output.runId);
      return [output.caseId, { ...result, output }];
    }),
  );
  return cases;
}

/**
 * Why evalite cannot keep its results here, if it cannot: its better-sqlite3 is a native module
 * built at install, and a build against another Node's headers (an npm `nodedir` of an older
 * system Node) installs without error but does not load.
 */
function sqliteMissing(): string | undefined {
  // loaded as evalite loads it: from evalite's folder (npm may install it there, not at the top)
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      "const r = require('node:module').createRequire(require.resolve('evalite')); r('better-sqlite3')(':memory:').close()",
    ],
    { cwd: exampleDir, encoding: 'utf8' },
  );
  if (probe.status === 0) return undefined;
  const reason = probe.stderr.split('\n').find((line) => /Error|was compiled/.test(line)) ?? '';
  return `the evals example needs better-sqlite3 (evalite's store) built for this Node (${process.version}): ${reason.trim()} Rebuild it against this Node's headers: npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")" npm rebuild --prefix examples/evals/deps better-sqlite3`;
}
const missing = sqliteMissing();

describe.runIf(missing)('examples/evals', () => {
  it('needs better-sqlite3 built for this Node', () => {
    throw new Error(missing);
  });
});

describe.runIf(!missing)('examples/evals', () => {
  const [checkCommand, goodCommand, plantedCommand, compareCommand, studioCommand] =
    documentedCommands();
  let good: ReturnType<typeof shell>;
  let planted: ReturnType<typeof shell>;
  beforeAll(() => {
    expect(goodCommand).toMatch(/^npx evalite run /);
    expect(plantedCommand).toMatch(/^RELEASE_DATASET=planted-regression\.jsonl npx evalite run /);
    good = shell(goodCommand!);
    planted = shell(plantedCommand!);
  });

  it("checks, as the docs say, that evalite's store loads in this Node", () => {
    const check = shell(checkCommand!);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^june: evalite 0\.19\.\d+ can keep its results: /);
  });

  it("compares the two runs with the docs' own june command, from the example's folder", () => {
    const compare = shell(compareCommand!);
    expect(compare.stderr).toBe('');
    expect(compare.code).toBe(1);
    expect(compare.stdout).toMatch(
      /^regression {3}release › minor {2}staging only {2}100% → 0% {2}/,
    );
  });

  it("serves Studio over the cases' runs with the docs' own june command", async () => {
    const studio = await served(studioCommand!, '/api/runs');
    expect(studio.status, studio.output).toBe(200);
    const runIdsServed = (JSON.parse(studio.body) as { runs: Array<{ runId: string }> }).runs.map(
      (run) => run.runId,
    );
    const goodRuns = [...resultsOf(join(out, 'good.json')).values()].map(
      (result) => result.output.runId,
    );
    expect(runIdsServed).toEqual(expect.arrayContaining(goodRuns));
  });

  it('runs every case offline and prints each case with its scores', () => {
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/Score\s+100%/);
    const rows = caseRows(good.stdout);
    expect([...rows.keys()].sort()).toEqual([...caseIds].sort());
    for (const row of rows.values()) {
      expect(row.scores.split('\n'), row.caseId).toEqual(scorers.map((name) => `${name} 100%`));
      expect(row.score, row.caseId).toBe('100%');
    }
  });

  it("keeps each case's June trace with it: the trace file, and Studio's link in its output and its columns", () => {
    const cases = resultsOf(join(out, 'good.json'));
    expect([...cases.keys()].sort()).toEqual([...caseIds].sort());
    const rows = caseRows(good.stdout);
    for (const [caseId, result] of cases) {
      const { output } = result;
      expect(output.studioUrl).toBe(`http://127.0.0.1:4000/#/runs/${output.runId}`);
      expect(output.traceFile).toBe(join(exampleDir, '.june/runs', `${output.runId}.json`));
      const trace = JSON.parse(readFileSync(output.traceFile, 'utf8')) as Trace;
      expect(trace).toMatchObject({
        runId: output.runId,
        status: 'succeeded',
        workflow: 'Release',
      });
      expect(result).toMatchObject({
        renderedColumns: [
          { label: 'Case', value: caseId },
          { label: 'Scores', value: expect.any(String) },
          { label: 'June trace', value: `[${output.runId}](${output.studioUrl})` },
        ],
      });
      expect(rows.get(caseId)!.trace).toBe(`[${output.runId}](${output.studioUrl})`);
    }
    // three cases from model scripts, one from a recorded run (its props from the journal)
    expect(cases.get('hotfix')!.output).toMatchObject({
      model: 'replay',
      steps: { release: expect.stringContaining('1.2.2') },
    });
    expect(cases.get('patch')!.output.model).toBe('script');
  });

  it("links each case to its trace in the eval UI's own data (evalite's database)", () => {
    const db = new DatabaseSync(join(exampleDir, 'node_modules/.evalite/cache.sqlite'), {
      readOnly: true,
    });
    try {
      const rows = db
        .prepare(
          `SELECT results.output, results.rendered_columns FROM results
           JOIN evals ON evals.id = results.eval_id
           WHERE evals.run_id = (SELECT MAX(id) FROM runs)`,
        )
        .all() as unknown as Array<{ output: string; rendered_columns: string }>;
      // the last run is the planted one
      expect(rows).toHaveLength(caseIds.length);
      for (const row of rows) {
        const output = JSON.parse(row.output) as WorkflowEvalOutput;
        expect(existsSync(output.traceFile)).toBe(true);
        expect(JSON.parse(row.rendered_columns)).toContainEqual({
          label: 'June trace',
          value: `[${output.runId}](http://127.0.0.1:4000/#/runs/${output.runId})`,
        });
      }
    } finally {
      db.close();
    }
  });

  it('fails the planted regression: the case that deploys to prod scores 0 for staging only', () => {
    expect(planted.code).toBe(1);
    expect(planted.stdout).toMatch(/Threshold\s+100% \(failed\)/);
    const rows = caseRows(planted.stdout);
    expect(rows.get('minor')!.scores.split('\n')).toEqual(
      scorers.map((name) => `${name} ${name === 'staging only' ? 0 : 100}%`),
    );
    for (const caseId of ['patch', 'major', 'hotfix']) expect(rows.get(caseId)!.score).toBe('100%');

    const minor = resultsOf(join(out, 'planted.json')).get('minor')!;
    expect(minor.scores).toContainEqual(
      expect.objectContaining({
        name: 'staging only',
        score: 0,
        metadata: { deployedTo: ['staging', 'prod'] },
      }),
    );
  });

  it('names the regression per case when the two runs are compared', () => {
    const planted = resultsOf(join(out, 'planted.json'));
    const compare = spawnSync(
      process.execPath,
      [cliPath, 'evals', 'compare', join(out, 'good.json'), join(out, 'planted.json')],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(compare.stderr).toBe('');
    expect(compare.status).toBe(1);
    expect(compare.stdout.split('\n')).toEqual([
      `regression   release › minor  staging only  100% → 0%  ${planted.get('minor')!.output.studioUrl}`,
      '1 regression, 0 improvements, 3 cases unchanged',
      '',
    ]);

    const missing = spawnSync(
      process.execPath,
      [cliPath, 'evals', 'compare', join(out, 'none.json'), join(out, 'good.json')],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(
      /^june: cannot read the eval results .*none\.json: .*Write them with `evalite run --outputPath/,
    );
  });
});

// A case whose changelog (a tool's output) holds the OpenAI key, and whose model echoes the key
// and the credentials of OPENAI_BASE_URL: none of them may reach what evalite keeps.
const leaked = {
  openaiKey: 'sk-evals-leak-secret-424242',
  urlPassword: 'evals-url-password-1717',
  urlToken: 'evals-url-token-3131',
};
const leakedBaseUrl = `http://june:${leaked.urlPassword}@127.0.0.1:9/v1?token=${leaked.urlToken}`;

/** Every file under `dir`, recursively (a folder that does not exist has none). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.runIf(!missing)('examples/evals with a secret in a case', () => {
  let result: ReturnType<typeof evalite>;
  beforeAll(() => {
    // evalite's store afresh, so every byte in it is from this run
    rmSync(join(exampleDir, 'node_modules/.evalite'), { recursive: true, force: true });
    const script = join(out, 'leak.script.json');
    writeFileSync(
      script,
      JSON.stringify({
        $comment: 'Test fixture: a model that echoes the key the changelog holds',
        steps: {
          release: [
            { text: 'Reading the 1.2.1 changelog.', toolCalls: [{ tool: 'readChangelog' }] },
            {
              text: `It rotates ${leaked.openaiKey}. Deploying 1.2.1 to staging.`,
              toolCalls: [{ tool: 'deploy', input: { env: 'staging' } }],
            },
            {
              text: `Deployed 1.2.1 to staging with the key ${leaked.openaiKey} at ${leakedBaseUrl}.`,
            },
          ],
        },
      }),
    );
    const dataset = join(out, 'leak.jsonl');
    const changelog = `## 1.2.1\n\n- Rotated the deploy key; the new one is ${leaked.openaiKey}.`;
    writeFileSync(
      dataset,
      JSON.stringify({
        id: 'leak',
        props: { version: '1.2.1', changelog },
        expected: {
          version: '1.2.1',
          toolsCalled: ['readChangelog', 'deploy'],
          approvalsAsked: ['deploy'],
          maxSteps: 4,
        },
        script,
      }) + '\n',
    );
    result = evalite(['--outputPath', join(out, 'leak.json')], {
      RELEASE_DATASET: dataset,
      OPENAI_API_KEY: leaked.openaiKey,
      OPENAI_BASE_URL: leakedBaseUrl,
    });
  });

  it("keeps none of it in evalite's results, database (its WAL included) or June's records", () => {
    expect(result.code, result.stderr).toBe(0);
    const cases = resultsOf(join(out, 'leak.json'));
    const { input, output } = cases.get('leak')! as unknown as {
      input: { props: { changelog: string } };
      output: WorkflowEvalOutput<string>;
    };
    // the secrets reached the records' places, redacted
    expect(input.props.changelog).toContain('the new one is [redacted].');
    expect(output.answer).toContain(
      'with the key [redacted] at http://[redacted]@127.0.0.1:9/v1?[redacted].',
    );
    expect(output.output).toBe(output.answer);
    expect(output.steps.release).toBe(output.answer);

    const files = [
      join(out, 'leak.json'),
      ...filesUnder(join(exampleDir, 'node_modules/.evalite')),
      output.traceFile,
      join(exampleDir, '.june/runs', output.runId, 'journal.jsonl'),
    ];
    expect(files.some((file) => file.endsWith('cache.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const [name, secret] of Object.entries(leaked))
        expect(bytes.includes(secret), `the ${name} secret in ${file}`).toBe(false);
    }
    for (const [name, secret] of Object.entries(leaked))
      expect(result.stdout, `the ${name} secret on evalite's output`).not.toContain(secret);
  });
});

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
