import { chmodSync, chownSync, existsSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswers } from '../../src/host/run-answers.js';
import type { Studio } from '../../src/studio/index.js';
import { nodesOf, onlyTrace, startJune, tempProject } from '../cli/cli-harness.js';
import { deployFlow, deployScript, postAnswer } from './deploy-run.js';
import { eventually, openStudio } from './support.js';

// Studio resumes a stopped run when a person answers it, and reads answers from the run's
// folder. Neither may be steered by what a file on disk says: a run folder that came with a
// cloned repository, or that another user can write, never makes Studio start a command, and
// a folder or file June does not trust is refused with a june: message.

const uid = process.getuid?.();
const NOBODY = 65534;

describe('June Studio never runs what a run folder says, and trusts only folders that are yours', () => {
  let project: ReturnType<typeof tempProject>;
  let studio: Studio;
  const runs = () => join(project.dir, '.june', 'runs');
  const log = (name: string) =>
    existsSync(join(project.dir, name)) ? readFileSync(join(project.dir, name), 'utf8') : '';

  beforeAll(async () => {
    project = tempProject();
    project.write('flow.tsx', deployFlow('deploys.log'));
    project.write('evil.tsx', deployFlow('pwned.log'));
    project.write('flow.script.json', deployScript);
    studio = await openStudio(runs());
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    project?.remove();
  });

  /** A run stopped (Ctrl-C) while its deploy call waited for Studio: its id, folder and call key. */
  async function stoppedRun() {
    await rm(join(project.dir, '.june'), { recursive: true, force: true });
    const waiting = startJune(
      ['run', 'flow.tsx', '--script', 'flow.script.json', '--approve', 'wait'],
      project.dir,
    );
    await eventually(() => {
      const tool = nodesOf(onlyTrace(project.dir)).find((node) => node.kind === 'tool');
      expect(tool?.approval?.status).toBe('pending');
    }, 60_000);
    process.kill(waiting.pid, 'SIGINT');
    expect((await waiting.done).code).toBe(130);
    const runId = onlyTrace(project.dir).runId;
    const endpoint = `${studio.url}api/runs/${runId}/approvals`;
    const listed = await (await fetch(endpoint)).json();
    return {
      runId,
      folder: join(runs(), runId),
      endpoint,
      key: listed.waiting[0].key as string,
      listed,
    };
  }

  it('resumes a run whose process.json a june run of yours sealed, and no other', async () => {
    const run = await stoppedRun();
    expect(run.listed).toMatchObject({ state: 'stopped', resumable: true });
    const record = JSON.parse(readFileSync(join(run.folder, 'process.json'), 'utf8'));
    expect(record.resume).toEqual({
      workflow: join(project.dir, 'flow.tsx'),
      cwd: project.dir,
      flags: { script: join(project.dir, 'flow.script.json') },
    });
    expect(record.seal).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(record)).not.toContain('"command"');
  }, 120_000);

  it('starts nothing for a planted process.json that names a command', async () => {
    const run = await stoppedRun();
    project.write(
      join('.june', 'runs', run.runId, 'process.json'),
      JSON.stringify({
        pid: 999_999,
        approve: 'wait',
        resume: { command: '/bin/sh', args: ['-c', 'echo ran > pwned.log'], cwd: project.dir },
        startedAt: new Date().toISOString(),
      }),
    );
    chmodSync(join(run.folder, 'process.json'), 0o600);
    expect(await (await fetch(run.endpoint)).json()).toMatchObject({ resumable: false });
    const answered = await postAnswer(
      run.endpoint,
      { key: run.key, approved: true },
      studio.answerToken,
    );
    expect(answered).toEqual({ status: 202, body: { delivered: 'recorded' } });
    expect(existsSync(join(run.folder, 'resume.log'))).toBe(false);
    expect(log('pwned.log')).toBe('');
  }, 120_000);

  it('starts nothing for resume details changed to another workflow, or sealed by someone else', async () => {
    const run = await stoppedRun();
    const path = join(run.folder, 'process.json');
    const record = JSON.parse(readFileSync(path, 'utf8'));
    const forged = [
      { ...record, resume: { ...record.resume, workflow: join(project.dir, 'evil.tsx') } },
      { ...record, seal: 'a'.repeat(64) },
      { ...record, seal: undefined },
    ];
    for (const planted of forged) {
      project.write(join('.june', 'runs', run.runId, 'process.json'), JSON.stringify(planted));
      chmodSync(path, 0o600);
      const listed = await (await fetch(run.endpoint)).json();
      expect(listed).toMatchObject({ state: 'stopped', resumable: false });
      expect(listed.notResumable).toBe(
        'its process.json was not written by a june run of yours on this machine',
      );
    }
    const answered = await postAnswer(
      run.endpoint,
      { key: run.key, approved: true },
      studio.answerToken,
    );
    expect(answered).toEqual({ status: 202, body: { delivered: 'recorded' } });
    expect(existsSync(join(run.folder, 'resume.log'))).toBe(false);
    expect(log('pwned.log') + log('deploys.log')).toBe('');
  }, 120_000);

  it('refuses a run folder others can write to, and answers another user wrote into it', async () => {
    const run = await stoppedRun();
    const answers = join(run.folder, 'answers.jsonl');
    project.write(
      join('.june', 'runs', run.runId, 'answers.jsonl'),
      `${JSON.stringify({ key: run.key, approved: true, at: new Date().toISOString() })}\n`,
    );
    chmodSync(run.folder, 0o777);
    chmodSync(answers, 0o666);
    if (uid === 0) chownSync(answers, NOBODY, NOBODY);
    for (const response of [
      await fetch(run.endpoint).then(async (r) => ({ status: r.status, body: await r.json() })),
      await postAnswer(run.endpoint, { key: run.key, approved: true }, studio.answerToken),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('studio-run-folder-unsafe');
      expect(response.body.error).toMatch(
        new RegExp(`^june: run "${run.runId}": .* that others can write to \\(mode 777\\)`),
      );
    }
    // what june run --approve studio reads: nothing from that folder or file
    await expect(readAnswers(run.folder)).rejects.toMatchObject({ code: 'run-folder-unsafe' });
    chmodSync(run.folder, 0o700);
    await expect(readAnswers(run.folder)).rejects.toMatchObject({ code: 'run-folder-unsafe' });
    if (uid === 0) {
      chmodSync(answers, 0o600);
      await expect(readAnswers(run.folder)).rejects.toThrow(/owned by another user \(uid 65534/);
    }
    // resumed from a terminal with Studio answering, the run refuses the folder before it starts
    chmodSync(run.folder, 0o777);
    const resumed = await startJune(
      [
        'run',
        'flow.tsx',
        '--script',
        'flow.script.json',
        '--approve',
        'studio',
        '--resume',
        run.runId,
      ],
      project.dir,
    ).done;
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toMatch(/^june: .* that others can write to/m);
    expect(log('deploys.log')).toBe('');
  }, 120_000);

  it('refuses a run folder that is a symbolic link, writing nothing through it', async () => {
    const run = await stoppedRun();
    const elsewhere = project.folder('elsewhere');
    renameSync(run.folder, join(elsewhere, run.runId));
    symlinkSync(join(elsewhere, run.runId), run.folder);
    const listed = await fetch(run.endpoint);
    expect(listed.status).toBe(403);
    expect((await listed.json()).error).toMatch(/is a symbolic link/);
    const answered = await postAnswer(
      run.endpoint,
      { key: run.key, approved: true },
      studio.answerToken,
    );
    expect(answered.status).toBe(403);
    expect(existsSync(join(elsewhere, run.runId, 'answers.jsonl'))).toBe(false);
  }, 120_000);

  it('refuses an answers file linked to a device instead of reading it', async () => {
    const run = await stoppedRun();
    symlinkSync('/dev/zero', join(run.folder, 'answers.jsonl'));
    const listed = await fetch(run.endpoint);
    expect(listed.status).toBe(403);
    expect((await listed.json()).error).toMatch(/answers\.jsonl is a symbolic link/);
    const { runs: list } = await (await fetch(`${studio.url}api/runs`)).json();
    expect(list).toHaveLength(1);
  }, 120_000);

  it('answers 4xx for a trace file that is not a trace, never its content', async () => {
    const runId = '20261201-120000-abcdef012345';
    for (const content of ['password=hunter2-SECRET', '{"password":"hunter2-SECRET"}', '[1,2]']) {
      project.write(join('.june', 'runs', `${runId}.json`), content);
      const response = await fetch(`${studio.url}api/runs/${runId}`);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const text = await response.text();
      expect(text).not.toContain('hunter2');
      expect(JSON.parse(text).error).toMatch(/^june: /);
    }
  }, 60_000);
});
