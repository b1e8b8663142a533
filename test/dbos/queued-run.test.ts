// What a run over a database is stored with (the DBOS workflow's input) and what its worker
// makes of it: secret props by name, the run's redaction as variable names and patterns, and
// props or a script holding a secret refused before anything is stored. No database needed.
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.js';
import { queuedRun } from '../../src/dbos/queued-run.js';
import { queuedRunSecrets } from '../../src/dbos/worker-secrets.js';

const env = { DEPLOY_TOKEN: 'tok-1a2b3c4d5e' };

describe('queuedRun: what is stored with a queued run', () => {
  it('keeps secret props and redaction values out, their names and the patterns in', () => {
    const stored = queuedRun(
      {
        workflow: 'release',
        props: { env: 'staging', apiKey: 'ak-0f1e2d3c' },
        secretProps: ['apiKey'],
        redact: { values: ['ak-0f1e2d3c'], env: ['DEPLOY_TOKEN'], patterns: [/ghp_\w+/i] },
      },
      env,
    );
    expect(stored).toEqual({
      workflow: 'release',
      props: { env: 'staging' },
      secretProps: ['apiKey'],
      redact: { env: ['DEPLOY_TOKEN'], patterns: [{ source: 'ghp_\\w+', flags: 'i' }] },
    });
    expect(JSON.stringify(stored)).not.toMatch(/ak-0f1e2d3c|tok-1a2b3c4d5e/);
  });

  it('refuses props or a script holding a secret the run redacts', () => {
    const refused = (run: Parameters<typeof queuedRun>[0]) => () => queuedRun(run, env);
    expect(
      refused({
        workflow: 'release',
        props: { note: 'use tok-1a2b3c4d5e', url: 'https://x/?t=GHP_abc', env: 'staging' },
        redact: { env: ['DEPLOY_TOKEN'], patterns: [/ghp_\w+/i] },
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'dbos-props-secret',
        message: expect.stringMatching(/^june: the props "note", "url" of the run hold a secret/),
      }),
    );
    expect(
      refused({
        workflow: 'release',
        script: { steps: { plan: [{ text: 'the key is ak-0f1e2d3c' }] } },
        secretProps: ['apiKey'],
        redact: { values: ['ak-0f1e2d3c'] },
      }),
    ).toThrow(expect.objectContaining({ code: 'dbos-props-secret' }));
  });
});

describe('queuedRunSecrets: a queued run at its worker', () => {
  const input = queuedRun(
    {
      workflow: 'release',
      props: { env: 'staging' },
      secretProps: ['apiKey'],
      redact: { env: ['DEPLOY_TOKEN'], patterns: [/ghp_\w+/i] },
    },
    env,
  );

  it("gives the secret props from the worker and redacts the run's and the worker's secrets", () => {
    const { props, redact } = queuedRunSecrets(
      'r1',
      input,
      { secretProps: { apiKey: 'ak-worker-9z8y', unused: 'u-1' }, redact: { values: ['w-0000'] } },
      { DEPLOY_TOKEN: 'tok-worker-7x6w' },
    );
    expect(props).toEqual({ env: 'staging', apiKey: 'ak-worker-9z8y' });
    const redactor = new Redactor(redact);
    expect(redactor.text('ak-worker-9z8y tok-worker-7x6w GHP_abc w-0000 staging')).toBe(
      '[redacted] [redacted] [redacted] [redacted] staging',
    );
  });

  it('fails a run naming a secret prop the worker was not given', () => {
    expect(() => queuedRunSecrets('r1', input, {}, {})).toThrow(
      expect.objectContaining({
        code: 'dbos-secret-props-missing',
        message: expect.stringMatching(/^june: the run r1 takes the secret prop "apiKey"/),
      }),
    );
  });
});
