import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findWorkflows } from '../../src/cli/find-workflows.js';
import { sampleInput } from '../../src/workflows/sample-input.js';
import { workflowProblem } from '../../src/cli/workflow-entry.js';
import { WorkflowError } from '../../src/errors/index.js';
import { tempProject } from './cli-harness.js';

// The parts of `june dev` that decide what it loads and how it shows a failure.

describe('findWorkflows', () => {
  it('finds .tsx/.jsx files with a default export, never in node_modules, dist or hidden folders', async () => {
    const project = tempProject();
    try {
      const component = 'export default function W() { return null; }\n';
      project.write('a.tsx', component);
      project.write('flows/b.jsx', component);
      project.write('flows/helpers.tsx', 'export const x = 1;\n'); // no default export
      project.write('flows/c.ts', component); // not JSX
      project.write('dist/d.tsx', component);
      project.write('.june/e.tsx', component);
      project.write('.cache/f.tsx', component);
      project.write('node_modules/pkg/g.tsx', component);
      const found = await findWorkflows(project.dir);
      expect(found.map((file) => [file.id, file.named])).toEqual([
        ['a.tsx', false],
        ['flows/b.jsx', false],
      ]);
      expect(
        (await findWorkflows(project.dir, ['flows', 'flows/c.ts'])).map((file) => [
          file.id,
          file.named,
        ]),
      ).toEqual([
        ['flows/b.jsx', false],
        ['flows/c.ts', true],
      ]);
    } finally {
      project.remove();
    }
  });

  it('refuses a target outside the project or missing, with what to do, and never follows a link out of it', async () => {
    const project = tempProject();
    const elsewhere = tempProject();
    try {
      const outside = elsewhere.write(
        'outside.tsx',
        'export default function O() { return null; }\n',
      );
      symlinkSync(outside, join(project.dir, 'linked.tsx'));
      symlinkSync(elsewhere.dir, join(project.dir, 'linked-folder'));
      expect(await findWorkflows(project.dir)).toEqual([]);
      await expect(findWorkflows(project.dir, ['linked.tsx'])).rejects.toMatchObject({
        code: 'cli-workflow-missing',
        message: expect.stringMatching(
          /^june: linked\.tsx leads outside the project .* \(a symbolic link\)/,
        ),
      });
      await expect(findWorkflows(project.dir, ['../'])).rejects.toMatchObject({
        code: 'cli-workflow-missing',
        message: expect.stringMatching(/^june: \.\.\/ is outside the project /),
      });
      await expect(findWorkflows(project.dir, ['nope.tsx'])).rejects.toMatchObject({
        code: 'cli-workflow-missing',
        message: expect.stringMatching(/^june: cannot find nope\.tsx /),
      });
    } finally {
      project.remove();
      elsewhere.remove();
    }
  });
});

describe('sampleInput', () => {
  it('makes a small value that fits the schema', () => {
    expect(
      sampleInput({
        type: 'object',
        properties: {
          question: { type: 'string' },
          label: { type: 'string', enum: ['bug', 'docs'] },
          count: { type: 'integer', minimum: 2 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
          deep: { type: 'object', properties: { flag: { type: 'boolean' } }, required: ['flag'] },
          either: { anyOf: [{ type: 'number' }, { type: 'string' }] },
          given: { type: 'string', default: 'hello' },
          optional: { type: 'string' },
        },
        required: ['question', 'label', 'count', 'tags', 'deep', 'either', 'given'],
      }),
    ).toEqual({
      question: '',
      label: 'bug',
      count: 2,
      tags: [''],
      deep: { flag: false },
      either: 0,
      given: 'hello',
    });
    expect(sampleInput(undefined)).toBeNull();
  });
});

describe('workflowProblem', () => {
  it("keeps a JuneError's code and message, and names the first declaration with a place", () => {
    const error = new WorkflowError(
      'capability-collision',
      'june: two capabilities of <Agent name="a"> at flows/a.tsx:12:7 expose the tool name "x".',
    );
    expect(workflowProblem(error)).toEqual({
      code: 'capability-collision',
      message: error.message,
      declaration: 'flows/a.tsx:12',
    });
    expect(workflowProblem(new Error('boom'))).toEqual({
      code: 'workflow-load-failed',
      message: 'june: boom',
    });
  });
});
