import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, tempProject } from './cli-harness.js';

let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
});
afterAll(() => project.remove());

const generated = [
  'tsconfig.json',
  'vitest.config.ts',
  'hello.tsx',
  'hello.script.json',
  'hello.test.tsx',
];

describe('june init', () => {
  it('sets up a project whose first workflow then runs offline from its script', async () => {
    const cwd = project.folder('fresh');
    writeFileSync(join(cwd, 'package.json'), '{ "name": "fresh", "type": "module" }\n');
    const init = await june(['init'], cwd);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    for (const file of generated) expect(init.stdout).toContain(file);
    expect(init.stdout).toContain('npx june run hello.tsx --script hello.script.json');
    // the user's package.json stays as it was
    expect(readFileSync(join(cwd, 'package.json'), 'utf8')).toBe(
      '{ "name": "fresh", "type": "module" }\n',
    );

    const tsconfig = JSON.parse(readFileSync(join(cwd, 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions).toMatchObject({
      jsx: 'react-jsx',
      jsxImportSource: 'june',
      types: ['node'],
    });
    expect(readFileSync(join(cwd, 'vitest.config.ts'), 'utf8')).toContain(
      "oxc: { jsx: { runtime: 'automatic', importSource: 'june' } }",
    );

    // june run finds the workflow's folder through the project's node_modules (june, ai, zod)
    const result = await june(['run', 'hello.tsx', '--script', 'hello.script.json'], cwd);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('← weather {"city":"Oslo","celsius":4,"sky":"cloudy"}');
    expect(result.stdout).toContain('✓ succeeded');
    expect(result.code).toBe(0);
  });

  it('writes nothing when one of its files exists, and says which', async () => {
    const cwd = project.folder('taken');
    writeFileSync(join(cwd, 'tsconfig.json'), '{}\n');
    const init = await june(['init'], cwd);
    expect(init.code).toBe(2);
    expect(init.stdout).toBe('');
    expect(init.stderr).toBe(
      'june: init writes nothing, since tsconfig.json exists in .; it never overwrites a file. Move it aside, or run june init in a new folder (june init my-project).\n',
    );
    expect(readFileSync(join(cwd, 'tsconfig.json'), 'utf8')).toBe('{}\n');
    for (const file of generated.slice(1)) expect(existsSync(join(cwd, file))).toBe(false);
  });

  it('makes the folder it is given, with a package.json of ES modules when there is none', async () => {
    const init = await june(['init', 'new-project'], project.folder('parent'));
    expect(init.code).toBe(0);
    const dir = join(project.dir, 'parent', 'new-project');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({
      name: 'new-project',
      type: 'module',
      scripts: { test: 'vitest run' },
    });
    expect(init.stdout).toContain('cd new-project');
    for (const file of generated) expect(existsSync(join(dir, file))).toBe(true);
  });

  it('warns when the existing package.json does not make the files ES modules; the workflow runs all the same', async () => {
    const cwd = project.folder('commonjs');
    writeFileSync(join(cwd, 'package.json'), '{ "name": "commonjs" }\n');
    const init = await june(['init'], cwd);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'june: warning: package.json has no "type": "module"; june run loads hello.tsx all the same, but tsc and editors read .ts and .tsx files as CommonJS, so type-checking fails: run npm pkg set type=module.',
    );
    // the first next step sets it
    const next = init.stdout.split('\n');
    expect(next[next.indexOf('next:') + 1]).toBe('  npm pkg set type=module');

    // the next step it prints works before that
    const result = await june(['run', 'hello.tsx', '--script', 'hello.script.json'], cwd);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('✓ succeeded');
    expect(result.code).toBe(0);
  });
});
