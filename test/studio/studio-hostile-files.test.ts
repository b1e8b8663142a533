import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunList, RunListEntry } from '../../src/studio/index.js';
import { RunDirectory } from '../../src/host/run-directory.js';
import { bigTrace } from '../fixtures/studio/big-trace.js';
import { deepTrace, deepTraceText } from '../fixtures/studio/deep-trace.js';
import { recordRelease } from '../fixtures/studio/workflows.js';
import { eventually, listen, openStudio, runsDir } from './support.js';

// Files no run would write, and Studio must survive: traces nested thousands of levels deep
// or of 100,000 nodes (walked without recursion), links that lead out of the runs folder,
// and files whose content must never be quoted back.

const byId = (runs: RunListEntry[]) => Object.fromEntries(runs.map((run) => [run.runId, run]));

describe('deep and huge traces', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await runsDir();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a 5,000-level (1 MB) trace and a 100,000-node one: Studio starts, lists and serves them; deeper than 10,000 levels is unreadable with the reason', async () => {
    const deep = deepTraceText(deepTrace(5000, 'deep'));
    expect(deep.length).toBeGreaterThan(1_000_000);
    await writeFile(join(dir, 'deep.json'), deep);
    await writeFile(join(dir, 'wide.json'), JSON.stringify(bigTrace(100_000, 'wide')));
    await writeFile(join(dir, 'deeper.json'), deepTraceText(deepTrace(12_000, 'deeper')));

    const studio = await openStudio(dir);
    try {
      const runs = byId(((await (await fetch(`${studio.url}api/runs`)).json()) as RunList).runs);
      expect(runs.deep).toMatchObject({ status: 'succeeded', nodeCount: 5001, totalTokens: 10 });
      expect(runs.wide).toMatchObject({ status: 'succeeded', nodeCount: 100_000 });
      expect(runs.deeper).toMatchObject({
        unreadable: expect.stringMatching(
          /^not a June trace: the tree is nested more than 10,000 levels deep \(at root\.children\[0\]\.children\[0\]\.children\[0\]\.\.\.\(9,995 levels\)\.\.\.\.children\[0\]\.children\[0\]\.children\[0\]\); Studio shows traces up to that depth$/,
        ),
      });
      const served = await fetch(`${studio.url}api/runs/deep`);
      expect(served.status).toBe(200);
      expect(await served.text()).toBe(deep);
      expect((await fetch(`${studio.url}api/runs/deeper`)).status).toBe(422);
    } finally {
      await studio.close();
    }
  });

  it("dropped into a running Studio's folder, the same files are listed live and the server keeps answering", async () => {
    const folder = await runsDir();
    const scratch = await runsDir();
    const studio = await openStudio(folder, { pollIntervalMs: 100 });
    const live = await listen(studio.url);
    try {
      // written elsewhere and moved in, as `june run` replaces its trace file
      for (const [name, text] of [
        ['deep', deepTraceText(deepTrace(5000, 'deep'))],
        ['wide', JSON.stringify(bigTrace(100_000, 'wide'))],
      ] as const) {
        await writeFile(join(scratch, `${name}.json`), text);
        await rename(join(scratch, `${name}.json`), join(folder, `${name}.json`));
      }
      const deep = await live.next(
        (event) => event.event === 'run' && event.data.run.runId === 'deep',
        20_000,
      );
      expect(deep.data.run).toMatchObject({ nodeCount: 5001, totalTokens: 10 });
      const wide = await live.next(
        (event) => event.event === 'run' && event.data.run.runId === 'wide',
        20_000,
      );
      expect(wide.data.run).toMatchObject({ nodeCount: 100_000 });
      expect((await fetch(`${studio.url}api/runs`)).status).toBe(200);
    } finally {
      await live.close();
      await studio.close();
      await rm(folder, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('links and content', () => {
  let parent: string;
  let dir: string;
  const secret = 'root:x:0:0:TOP-SECRET-LINE';
  beforeAll(async () => {
    parent = await runsDir();
    dir = join(parent, 'runs');
    await mkdir(dir);
    const release = await recordRelease(dir);
    await writeFile(join(parent, 'passwd'), `${secret}\n`);
    await writeFile(join(parent, 'outside.json'), JSON.stringify({ ...release, runId: 'outside' }));
    await symlink(join(parent, 'passwd'), join(dir, 'passwd.json'));
    await symlink(join(parent, 'outside.json'), join(dir, 'outside.json'));
    await symlink('../runs/../outside.json', join(dir, 'sneaky.json'));
    await symlink(`${release.runId}.json`, join(dir, 'alias.json')); // inside the folder: followed
    await writeFile(join(dir, 'garbage.json'), `${secret} more`);
    await writeFile(
      join(dir, 'strings.json'),
      JSON.stringify({ version: secret, runId: 'strings' }),
    );
    await writeFile(
      join(dir, 'node.json'),
      JSON.stringify({ ...release, root: { ...release.root, kind: secret } }),
    );
  });
  afterAll(() => rm(parent, { recursive: true, force: true }));

  it('does not follow links out of the runs folder, follows links within it, and never quotes a file', async () => {
    const studio = await openStudio(dir);
    try {
      const listText = await eventually(async () => {
        const text = await (await fetch(`${studio.url}api/runs`)).text();
        expect((JSON.parse(text) as RunList).runs).toHaveLength(8); // files that just changed get a moment to finish being written
        return text;
      });
      expect(listText).not.toContain('TOP-SECRET');
      expect(listText).not.toContain('root:x');
      const runs = byId((JSON.parse(listText) as RunList).runs);
      const outside =
        'a link to a file outside the runs folder; Studio reads only the files inside it';
      expect(runs.passwd).toMatchObject({ unreadable: outside });
      expect(runs.outside).toMatchObject({ unreadable: outside });
      expect(runs.sneaky).toMatchObject({ unreadable: outside });
      expect(runs.alias).toMatchObject({ status: 'succeeded' });
      expect(runs.garbage).toMatchObject({
        unreadable:
          'not valid JSON (an unexpected character in 31 characters); a file cut short or still being written reads like this',
      });
      expect(runs.strings).toMatchObject({
        unreadable:
          'not a June trace: version is a string of 26 characters; Studio reads version 1 traces',
      });
      expect(runs.node).toMatchObject({
        unreadable: expect.stringMatching(
          /^not a June trace: root\.kind is a string of 26 characters; expected one of/,
        ),
      });

      for (const id of ['passwd', 'outside', 'sneaky', 'garbage', 'strings', 'node']) {
        const response = await fetch(`${studio.url}api/runs/${id}`);
        expect(response.status, id).toBe(422);
        expect(await response.text(), id).not.toMatch(/TOP-SECRET|root:x/);
      }
      expect((await fetch(`${studio.url}api/runs/alias`)).status).toBe(200);
    } finally {
      await studio.close();
    }
  });

  it('a link swapped to point outside after Studio listed it is not served', async () => {
    const runs = new RunDirectory({ dir, settleMs: 0 });
    try {
      expect(byId(await runs.list()).alias).toMatchObject({ status: 'succeeded' });
      await rm(join(dir, 'alias.json'));
      await symlink(join(parent, 'outside.json'), join(dir, 'alias.json'));
      await eventually(async () =>
        expect(await runs.readTrace('alias')).toEqual({
          unreadable:
            'a link to a file outside the runs folder; Studio reads only the files inside it',
        }),
      );
    } finally {
      runs.close();
    }
  });
});
