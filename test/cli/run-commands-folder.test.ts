// The built `june runs` and `june approve` over a real runs folder: a `june run --approve wait`
// stopped while its call waited is listed with that call, and answered from another process,
// which resumes it; the tool runs once, with the approved input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../mcp/support.js';
import { deskSource } from '../host/hosts-under-test.js';
import type { Trace, TraceNode } from '../../src/trace/trace-node.js';
import { june, onlyTrace, startJune, tempProject } from './cli-harness.js';

let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
  project.write('desk.tsx', deskSource);
});
afterAll(() => project.remove());

describe('june runs and june approve on the runs folder', () => {
  it('list a stopped run waiting for a call, answer it, and resume it: the tool runs once with the approved input', async () => {
    const running = startJune(
      ['run', 'desk.tsx', '--props', '{"mode":"deploy"}', '--approve', 'wait'],
      project.dir,
    );
    await waitUntil(
      () => running.output().stdout.includes('? deploy needs approval'),
      'the deploy to wait for approval',
      30_000,
    );
    process.kill(running.pid, 'SIGINT');
    expect((await running.done).code).toBe(130);
    const { runId } = onlyTrace(project.dir);

    const listed = await june(['runs'], project.dir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${runId}  \\S+  aborted\\n  waiting: (\\S+) · deploy \\{"env":"prod"\\} \\(step work; key work#0\\.0\\)\\n  stopped while waiting: june approve ${runId} resumes it\\n$`,
      ),
    );

    const answered = await june(['approve', runId, '--all'], project.dir);
    expect(answered.stderr).toBe('');
    expect(answered.stdout).toMatch(
      new RegExp(`^approved \\S+ of run ${runId}\\nresumed run ${runId}\\n$`),
    );
    expect(answered.code).toBe(0);

    const file = join(project.dir, '.june', 'runs', `${runId}.json`);
    const trace = (): Trace | undefined => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Trace;
      } catch {
        return undefined; // being written
      }
    };
    const deployOutputs = () => {
      const found: unknown[] = [];
      const stack: TraceNode[] = trace() ? [trace()!.root] : [];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (node.kind === 'tool' && node.name === 'deploy' && node.output !== undefined)
          found.push(node.output);
        stack.push(...node.children);
      }
      return found;
    };
    await waitUntil(() => deployOutputs().length > 0, 'the resumed run to deploy', 60_000);
    expect(deployOutputs()).toEqual(['deployed prod']);
    // the resumed run goes on in a process of its own: stop it
    const record = JSON.parse(
      readFileSync(join(project.dir, '.june', 'runs', runId, 'process.json'), 'utf8'),
    ) as { pid: number };
    process.kill(record.pid, 'SIGTERM');
  }, 180_000);

  it("an edit the tool's input schema refuses: june approve exits 1 naming the field, gives no answer, and the call still waits", async () => {
    const running = startJune(
      ['run', 'desk.tsx', '--props', '{"mode":"deploy"}', '--approve', 'wait'],
      project.dir,
    );
    await waitUntil(
      () => running.output().stdout.includes('? deploy needs approval'),
      'the deploy to wait for approval',
      30_000,
    );
    const runId = /· run (\S+)/.exec(running.output().stdout)![1]!;
    expect(running.output().stdout).toContain(`npx june approve ${runId} <requestId>`);

    const refused = await june(
      ['approve', runId, '--all', '--input', '{"env":"dev"}'],
      project.dir,
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^june: the edited input for the "deploy" call .* does not fit the tool's input schema: \$\.env: Invalid option: expected one of "staging"\|"prod"\. Nothing changed and the request still waits: approve with an input the schema accepts, approve without one, or deny\.\n$/,
    );
    // the call still waits, and a fitting edit is then taken
    const listed = await june(['runs'], project.dir);
    expect(listed.stdout).toContain(`  waiting: `);
    const approved = await june(
      ['approve', runId, '--all', '--input', '{"env":"staging"}'],
      project.dir,
    );
    expect(approved.stderr).toBe('');
    expect(approved.stdout).toMatch(/^approved \S+ of run \S+ with an edited input\n$/);
    expect(approved.code).toBe(0);

    const done = await running.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('deployed staging');
  }, 180_000);
});
