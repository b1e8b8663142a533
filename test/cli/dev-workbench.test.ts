// june dev's workbench finds a workflow's file again at every request, links resolved: a
// workflow the catalog listed and that was replaced since by a link out of the project is
// not started, tried or chatted with (its id answers as unknown).
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { devWorkbench } from '../../src/cli/dev-workbench.js';
import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';
import type { WorkflowCatalog } from '../../src/workflows/workflow-catalog.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'june-dev-workbench-')));
  folders.push(base);
  const root = join(base, 'project');
  mkdirSync(root);
  writeFileSync(join(root, 'flow.tsx'), 'export default function Flow() { return null; }\n');
  writeFileSync(join(base, 'outside.tsx'), 'export default function Other() { return null; }\n');
  const entry: WorkflowEntry = {
    id: 'flow.tsx',
    name: 'Flow',
    status: 'ready',
    loadedAt: new Date(0).toISOString(),
    props: {},
    takesMessages: false,
  };
  const catalog: WorkflowCatalog = {
    root,
    list: () => [entry],
    resolve: (id) => Promise.resolve(id === entry.id ? entry : undefined),
    subscribe: () => () => {},
  };
  return { base, root, catalog };
}

describe("june dev's workbench catalog", () => {
  it('gives the listed workflow its real file inside the project', async () => {
    const { root, catalog } = project();
    const found = await devWorkbench(catalog).workflow('flow.tsx');
    expect(found?.file).toBe(join(root, 'flow.tsx'));
    expect(await devWorkbench(catalog).workflow('other.tsx')).toBeUndefined();
  });

  it('does not give a listed workflow that became a link out of the project', async () => {
    const { base, root, catalog } = project();
    unlinkSync(join(root, 'flow.tsx'));
    symlinkSync(join(base, 'outside.tsx'), join(root, 'flow.tsx'));
    expect(await devWorkbench(catalog).workflow('flow.tsx')).toBeUndefined();
  });
});
