import { describe, expect, it } from 'vitest';
import { DevCatalog } from '../../src/cli/dev-catalog.js';
import { findWorkflows } from '../../src/cli/find-workflows.js';
import { tempProject } from './cli-harness.js';

// `june dev` loads workflow files in a thread of its own, replaced on every change: a file
// that ends its process while it loads ends only that thread, and shows as broken with why,
// while the other workflows load and the next save loads it again.

describe("june dev's loader thread", () => {
  it('shows a file that calls process.exit() as broken, and keeps loading the others', async () => {
    const project = tempProject();
    let catalog: DevCatalog | undefined;
    try {
      const component = (name: string) => `export default function ${name}() { return null; }\n`;
      project.write('a-quits.tsx', `process.exit(3);\n${component('Quits')}`);
      project.write('b-fine.tsx', component('Fine'));
      catalog = new DevCatalog(project.dir, await findWorkflows(project.dir), [project.dir]);
      await catalog.loadAll();
      const [quits, fine] = catalog.list();
      expect(quits).toMatchObject({ id: 'a-quits.tsx', status: 'broken' });
      expect(quits?.error?.message).toMatch(
        /^june: the thread loading a-quits\.tsx ended \(exit code 3\) before the workflow loaded; save the file again/,
      );
      expect(fine).toMatchObject({ id: 'b-fine.tsx', name: 'Fine', status: 'ready' });

      const file = project.write('a-quits.tsx', component('Quits'));
      await catalog.changed(file, 'change');
      expect(catalog.list()[0]).toMatchObject({
        id: 'a-quits.tsx',
        name: 'Quits',
        status: 'ready',
      });
    } finally {
      await catalog?.close();
      project.remove();
    }
  }, 120_000);
});
