import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliRedaction, resumedProps } from '../../src/cli/cli-redaction.js';
import { exitCodeOf } from '../../src/cli/exit-code.js';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return {
      code: (error as { code?: string }).code,
      message: (error as Error).message,
      exit: exitCodeOf(error),
    };
  }
  return undefined;
};

describe('the redaction flags of june run', () => {
  test("--secret-props (JSON or @file), --redact-env and --redact-pattern make the run's redact option", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'june-secret-props-')), 'secrets.json');
    writeFileSync(file, '{"db":{"password":"file-secret-1"}}');
    expect(
      cliRedaction(
        {
          secretProps: '{"token":"abc123","n":7,"list":["x9"]}',
          redactEnv: ['DEPLOY'],
          redactPattern: ['sk-[a-z]+'],
        },
        { DEPLOY: 'deploy-value' },
      ),
    ).toEqual({
      secretProps: { token: 'abc123', n: 7, list: ['x9'] },
      redact: {
        values: expect.arrayContaining(['abc123', 'x9', 'deploy-value']),
        patterns: [/sk-[a-z]+/],
      },
    });
    expect(cliRedaction({ secretProps: `@${file}` }).redact?.values).toEqual(['file-secret-1']);
    expect(cliRedaction({})).toEqual({});
  });

  test('bad flags are usage errors (exit 2) that never quote a secret', () => {
    expect(codeOf(() => cliRedaction({ secretProps: '{"token": sec-ret}' }))).toEqual({
      code: 'cli-props-invalid',
      message: `june: --secret-props is not valid JSON. Pass a JSON object, e.g. --secret-props '{"version":"1.2.0"}'.`,
      exit: 2,
    });
    expect(codeOf(() => cliRedaction({ redactEnv: ['NOPE'] }, {}))).toMatchObject({
      code: 'cli-option-invalid',
      exit: 2,
      message:
        'june: --redact-env NOPE: the environment variable NOPE is not set; set it, or leave out the flag.',
    });
    expect(codeOf(() => cliRedaction({ redactPattern: ['(['] }))).toMatchObject({
      code: 'cli-option-invalid',
      exit: 2,
    });
  });

  test('a resumed run needs its secret props again; given, they go over the recorded ones', () => {
    const recorded = { region: 'eu', apiToken: '[redacted]' };
    expect(codeOf(() => resumedProps(recorded, undefined))).toMatchObject({
      code: 'cli-option-invalid',
      message:
        'june: the run was started with the secret props apiToken, which its journal does not keep; pass them again with --secret-props.',
    });
    expect(resumedProps(recorded, { apiToken: 'real' })).toEqual({
      region: 'eu',
      apiToken: 'real',
    });
    expect(resumedProps(undefined, undefined)).toBeUndefined();
  });
});
