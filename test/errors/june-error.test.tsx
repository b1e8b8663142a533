import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { jsx } from 'june/jsx-runtime';
import {
  errorOfBlame,
  JuneError,
  juneErrorCodes,
  ModelBehaviorError,
  RunAbortedError,
  SystemError,
  WorkflowError,
} from '../../src/errors/index.js';
import { revivedError } from '../../src/journal/journal-codec.js';

const samples = {
  workflow: new WorkflowError('step-id-invalid', 'june: bad id'),
  model: new ModelBehaviorError('step-output-invalid', 'june: bad answer'),
  system: new SystemError('mcp-connect-failed', 'june: server down'),
  aborted: new RunAbortedError('stop'),
};

describe('isInstance: one marker per class', () => {
  test.each([
    ['WorkflowError', WorkflowError, ['workflow']],
    ['ModelBehaviorError', ModelBehaviorError, ['model']],
    ['SystemError', SystemError, ['system', 'aborted']],
    ['RunAbortedError', RunAbortedError, ['aborted']],
    ['JuneError', JuneError, ['workflow', 'model', 'system', 'aborted']],
  ] as const)('%s.isInstance is true for its own kind only', (_name, kind, own) => {
    for (const [sample, error] of Object.entries(samples))
      expect(kind.isInstance(error), sample).toBe((own as readonly string[]).includes(sample));
    expect(kind.isInstance(new Error('june: plain'))).toBe(false);
    expect(kind.isInstance(undefined)).toBe(false);
  });

  test('an error from another copy of June is recognised by its class, not by instanceof', async () => {
    const copy = '../../src/errors/june-error.js?another-copy';
    const other = (await import(
      /* @vite-ignore */ copy
    )) as typeof import('../../src/errors/june-error.js');
    expect(other.WorkflowError).not.toBe(WorkflowError);
    const foreign = new other.WorkflowError('step-id-invalid', 'june: bad id');
    expect(foreign).not.toBeInstanceOf(WorkflowError);
    expect(WorkflowError.isInstance(foreign)).toBe(true);
    expect(JuneError.isInstance(foreign)).toBe(true);
    expect(SystemError.isInstance(foreign)).toBe(false);
    expect(other.SystemError.isInstance(samples.workflow)).toBe(false);
  });

  test('each class keeps its blame, name and the june: prefix', () => {
    expect(samples.workflow).toMatchObject({ name: 'WorkflowError', blame: 'workflow' });
    expect(samples.model).toMatchObject({ name: 'ModelBehaviorError', blame: 'model' });
    expect(samples.system).toMatchObject({ name: 'SystemError', blame: 'system' });
    expect(samples.aborted).toMatchObject({
      name: 'RunAbortedError',
      blame: 'system',
      code: 'run-aborted',
      message: 'june: the run was aborted: stop',
    });
    expect(new SystemError('journal-corrupt', 'no prefix').message).toBe('june: no prefix');
  });
});

describe('errorOfBlame and revived journal errors', () => {
  test.each([
    ['workflow', WorkflowError],
    ['model', ModelBehaviorError],
    ['system', SystemError],
  ] as const)('blame %s gives its subclass', (blame, kind) => {
    const cause = new Error('inner');
    const error = errorOfBlame(blame, 'composite-tool-failed', 'june: failed', { cause });
    expect(kind.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ blame, code: 'composite-tool-failed', cause });
  });

  test('a recorded June error comes back as the subclass for its blame, with its name', () => {
    const revived = revivedError({
      name: 'WorkflowError',
      message: 'june: bad tree',
      code: 'step-id-invalid',
      blame: 'workflow',
    });
    expect(WorkflowError.isInstance(revived)).toBe(true);
    expect(SystemError.isInstance(revived)).toBe(false);
    expect(revived).toMatchObject({ name: 'WorkflowError', code: 'step-id-invalid' });
  });
});

describe('JuneErrorCode: every code June raises', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sources(join(dir, entry.name))
        : /\.tsx?$/.test(entry.name)
          ? [readFileSync(join(dir, entry.name), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')]
          : [],
    );
  const text = sources(join(import.meta.dirname, '../../src')).join('\n');

  test('the list is kebab-case, without repeats', () => {
    expect(new Set(juneErrorCodes).size).toBe(juneErrorCodes.length);
    for (const code of juneErrorCodes) expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test('every listed code is raised somewhere, and every code raised is listed', () => {
    const raised = new Set(
      [
        ...text.matchAll(
          /new (?:JuneError|WorkflowError|ModelBehaviorError|SystemError|ChatRequestError|StudioRequestError)\(\s*'([^']+)'/g,
        ),
        ...text.matchAll(/errorOfBlame\([^,]+,\s*'([^']+)'/g),
      ].map((match) => match[1]!),
    );
    raised.add('run-aborted');
    expect([...raised].sort()).toEqual([...juneErrorCodes].sort());
  });
});

describe('elements', () => {
  test('a tag that is not a component is a WorkflowError that says what to use', () => {
    let thrown: unknown;
    try {
      jsx('div' as never, {});
    } catch (error) {
      thrown = error;
    }
    expect(WorkflowError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'element-type-invalid',
      message: expect.stringMatching(
        /^june: an element's type must be a component function, got the string "div"\. Use a component as the tag/,
      ),
    });
  });
});
