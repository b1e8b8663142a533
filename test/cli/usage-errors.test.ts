import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, repoRoot, tempProject, traces } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'release.tsx');
let project: ReturnType<typeof tempProject>;
// a workflow that exports the schema of its props, as Studio's form reads it
const typed = `import { Agent, Step } from 'june';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

export const props = z.object({ env: z.enum(['staging', 'prod']), note: z.string().default('none') });

export default function Typed({ env, note }: z.infer<typeof props>) {
  const model = scriptedModel({ steps: { go: [{ text: \`deployed to \${env} (\${note})\` }] } });
  return (
    <Agent model={model}>
      <Step id="go" prompt={\`Deploy to \${env}\`} />
    </Agent>
  );
}
`;
beforeAll(() => {
  project = tempProject();
  project.write('typed.tsx', typed);
});
afterAll(() => project.remove());

describe('bad usage exits 2 with one june: line and runs nothing', () => {
  it.each([
    [
      'an unknown flag',
      ['run', example, '--jsn'],
      /^june: unknown option '--jsn' \(Did you mean --json\?\) See june run --help\.$/,
    ],
    [
      'a bad --approve value',
      ['run', example, '--approve', 'maybe'],
      /^june: option '--approve <mode>' argument 'maybe' is invalid\. Allowed choices are ask, all, none, studio, wait\. See june run --help\.$/,
    ],
    [
      'no workflow file',
      ['run'],
      /^june: missing required argument 'file'\. See june run --help\.$/,
    ],
    ['an unknown command', ['deploy'], /^june: unknown command 'deploy'\. See june --help\.$/],
    // an error inside a subcommand points to that subcommand's help
    [
      'june threads show without an id',
      ['threads', 'show'],
      /^june: missing required argument 'id'\. See june threads show --help\.$/,
    ],
    [
      'an unknown subcommand of june threads',
      ['threads', 'nope'],
      /^june: too many arguments for 'threads'\. .* See june threads --help\.$/,
    ],
    [
      'a --thread id no thread can have',
      ['run', example, '--thread', '-x'],
      /^june: "-x" is not a thread id; a thread id is 1 to 128 letters, digits, "\.", "_" and "-", not starting with "\." or "-" \(e\.g\. support-ana\)\.$/,
    ],
    [
      'june threads show of an id no thread can have',
      ['threads', 'show', '.bad'],
      /^june: "\.bad" is not a thread id; /,
    ],
    [
      'june try-tool without --agent',
      ['try-tool', example, '--tool', 'deploy'],
      /^june: required option '--agent <path>' not specified\. See june try-tool --help\.$/,
    ],
    [
      '--props that is not JSON',
      ['run', example, '--props', '{name:'],
      /^june: --props is not valid JSON \(.+\)\. Pass a JSON object, e\.g\. --props '\{"version":"1\.2\.0"\}'\.$/,
    ],
    [
      '--props that is not an object',
      ['run', example, '--props', '["a"]'],
      /^june: --props must be a JSON object of props, got an array\./,
    ],
    [
      '--props that do not fit the props schema the workflow exports',
      ['run', 'typed.tsx', '--props', '{"env":"dev"}'],
      /^june: the props do not fit typed\.tsx's props schema: env: .+\. Fix --props and run again\.$/,
    ],
    [
      'no --props for a workflow whose props schema wants some',
      ['run', 'typed.tsx'],
      /^june: the props do not fit typed\.tsx's props schema: env: .+\. Fix --props and run again\.$/,
    ],
    [
      '--props for inspect',
      ['inspect', example, '--props', 'null'],
      /^june: --props must be a JSON object of props, got null\./,
    ],
    [
      'a missing workflow file',
      ['run', 'missing.tsx'],
      /^june: cannot find the workflow file missing\.tsx \(looked for .*missing\.tsx\)\. Check the path/,
    ],
    [
      'a folder instead of a file',
      ['inspect', '.'],
      /^june: \. is a folder, not a workflow file\./,
    ],
    [
      'a missing script',
      ['run', example, '--script', 'missing.json'],
      /^june: cannot read the model script missing\.json/,
    ],
    [
      'a missing --replay file',
      ['run', example, '--replay', 'missing.jsonl'],
      /^june: cannot read the journal missing\.jsonl: there is no such file\. /,
    ],
    [
      'a --redact-env variable that is not set',
      ['run', example, '--redact-env', 'JUNE_TEST_UNSET'],
      /^june: --redact-env JUNE_TEST_UNSET: the environment variable JUNE_TEST_UNSET is not set/,
    ],
    [
      'june approve without a run id',
      ['approve'],
      /^june: june approve needs the id of the run to answer: june approve <runId> \[<requestId> \| --all\]; june runs lists the runs of \.june\/runs with their ids and waiting requests \(june runs --database <url>: those of a database\)\.$/,
    ],
    [
      'june approve with neither a request id nor --all',
      ['approve', 'run-1'],
      /^june: june approve takes a request id or --all \(one of them\); june runs lists the waiting requests\.$/,
    ],
    ...['0', 'abc', '-3', '2.5'].map((limit): [string, string[], RegExp] => [
      `june runs --limit ${limit}`,
      ['runs', '--limit', limit],
      new RegExp(
        `^june: option '--limit <n>' argument '${limit.replace('.', '\\.')}' is invalid\\. --limit takes a whole number of runs, 1 or more\\. See june runs --help\\.$`,
      ),
    ]),
    [
      'june worker with a --polling-interval that is not a whole number of ms',
      [
        'worker',
        example,
        '--database',
        'postgresql://127.0.0.1:1/none',
        '--polling-interval',
        '0.5',
      ],
      /^june: --polling-interval takes a whole number of ms, 1 or more; got "0\.5"\.$/,
    ],
    [
      'june worker with a --concurrency of 0',
      ['worker', example, '--database', 'postgresql://127.0.0.1:1/none', '--concurrency', '0'],
      /^june: --concurrency takes a whole number of runs, 1 or more; got "0"\.$/,
    ],
  ])('%s', async (_case, args, message) => {
    const result = await june(args, project.dir);

    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(result.stdout).toBe('');
    expect(traces(project.dir).size).toBe(0);
  });

  it('runs a workflow with --props that fit its props schema, defaults filled in', async () => {
    const own = tempProject();
    own.write('typed.tsx', typed);
    const result = await june(['run', 'typed.tsx', '--props', '{"env":"prod"}'], own.dir);
    own.remove();

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('deployed to prod (none)');
  });

  it('without --props, checks --secret-props against the props schema, and runs with them', async () => {
    const own = tempProject();
    own.write('typed.tsx', typed);
    const refused = await june(['run', 'typed.tsx', '--secret-props', '{"env":"dev"}'], own.dir);
    const result = await june(['run', 'typed.tsx', '--secret-props', '{"env":"prod"}'], own.dir);
    const written = traces(own.dir).size;
    own.remove();

    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^june: the props do not fit typed\.tsx's props schema: env: .+\. Fix --props and run again\.\n$/,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // the secret is redacted from the output; the default is filled in
    expect(result.stdout).toContain('deployed to [redacted] (none)');
    expect(written).toBe(1);
  });

  it('--help prints the commands and exits 0', async () => {
    const result = await june(['--help'], project.dir);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/run \[options\] <file>/);
    expect(result.stdout).toMatch(/inspect \[options\] <file>/);
  });

  it('june approve --help names the run id and where to find it', async () => {
    const result = await june(['approve', '--help'], project.dir);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: june approve <runId> [requestId] [--all] [options]');
    expect(result.stdout).toMatch(/runId +the run \(june runs lists them\)/);
    expect(result.stdout).toMatch(/--database <url> +the PostgreSQL URL of runs over a database/);
    expect(result.stdout).toMatch(/--dir <dir> +the runs folder, without --database/);
  });

  it('june cancel of a run the runs folder does not have exits 1 and names june runs', async () => {
    const result = await june(['cancel', 'nosuch'], project.dir);

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `june: there is no run "nosuch" in ${join('.june', 'runs')}; june runs lists the runs there (add --database <url> for a database's).\n`,
    );
  });

  it('june approve of a run the runs folder does not have exits 1 and says where it looked', async () => {
    const result = await june(['approve', 'run-1', '--all'], project.dir);

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `june: no readable run "run-1" in the runs folder ${join(project.dir, '.june', 'runs')}; june runs (add --database <url> for a database's) and June Studio list the runs there.\n`,
    );
  });
});
