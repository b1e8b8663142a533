import { describe, expect, test } from 'vitest';
import { Redactor } from '../../src/redaction/redactor.js';
import {
  configuredSecrets,
  registerEnvSecrets,
  registerHeaderSecrets,
  registerUrlSecrets,
} from '../../src/redaction/configured-secrets.js';
import { errorData } from '../../src/errors/error-data.js';
import { SystemError } from '../../src/errors/june-error.js';

describe('Redactor', () => {
  test('replaces values (longest first) and every match of each pattern', () => {
    const redactor = new Redactor({ values: ['abc', 'abcdef'], patterns: [/sk-[a-z0-9]+/] });
    expect(redactor.text('x abcdef y abc z sk-one sk-two')).toBe(
      'x [redacted] y [redacted] z [redacted] [redacted]',
    );
  });

  test('copies plain JSON with every string redacted; numbers, keys, dates and bytes stay', () => {
    const redactor = new Redactor({ values: ['hunter2'] });
    const date = new Date(0);
    const bytes = new Uint8Array([1, 2]);
    const value = {
      hunter2: 'my hunter2',
      list: ['hunter2', 3, null, { deep: 'hunter2!' }],
      date,
      bytes,
    };
    expect(redactor.value(value)).toEqual({
      hunter2: 'my [redacted]',
      list: ['[redacted]', 3, null, { deep: '[redacted]!' }],
      date,
      bytes,
    });
    expect(value.list[0]).toBe('hunter2');
  });

  test('walks a value 10,000 levels deep without recursion', () => {
    let value: { child?: unknown; text: string } = { text: 'hunter2' };
    for (let i = 0; i < 10_000; i++) value = { child: value, text: 'top' };
    let copy = new Redactor({ values: ['hunter2'] }).value(value) as {
      child?: unknown;
      text: string;
    };
    while (copy.child) copy = copy.child as typeof copy;
    expect(copy.text).toBe('[redacted]');
  });

  test("redacts an error in place, along its cause chain and an AggregateError's errors", () => {
    const inner = new TypeError('fetch http://x?key=hunter2 failed');
    const error = new SystemError('mcp-connect-failed', 'june: x failed', {
      cause: new AggregateError([inner], 'many: hunter2'),
    });
    const same = new Redactor({ values: ['hunter2'] }).error(error);
    expect(same).toBe(error);
    expect((error.cause as Error).message).toBe('many: [redacted]');
    expect(inner.message).toBe('fetch http://x?key=[redacted] failed');
    expect(inner.stack).not.toContain('hunter2');
  });

  test('a streamed cut never splits a value: not one across the cut, not the start of one still to come', () => {
    const parent = new Redactor({ values: ['open sesame 42'] });
    const redactor = new Redactor({ values: ['hunter2'] }, parent);
    // a value with spaces is held from where it may begin, though the caller cut at the last space
    expect(redactor.safeCut('say open sesame ', 'say open sesame '.length)).toBe(4);
    expect(redactor.safeCut('say open sesame 42 now', 19)).toBe(19);
    expect(redactor.safeCut('say open sesame 42 now', 9)).toBe(4);
    // the start of a value at the end of the text is held back
    expect(redactor.safeCut('password hun', 12)).toBe(9);
    // nothing that may be a value: the cut stays
    expect(redactor.safeCut('plain words ', 12)).toBe(12);
  });

  test('with nothing to redact, returns its inputs as they are', () => {
    const value = { a: 'b' };
    expect(new Redactor().value(value)).toBe(value);
  });

  test('clear forgets its values and patterns, as a new redactor; its parent keeps its own', () => {
    const parent = new Redactor({ values: ['hunter2'] });
    const redactor = new Redactor({ values: ['abc'], patterns: [/sk-[a-z0-9]+/] }, parent);
    redactor.add('open sesame');
    redactor.clear();
    expect(redactor.text('abc sk-one open sesame hunter2')).toBe(
      'abc sk-one open sesame [redacted]',
    );
    expect(redactor.safeCut('say open ses', 12)).toBe(12);
    parent.clear();
    expect(redactor.empty).toBe(true);
    const value = { a: 'hunter2' };
    expect(redactor.value(value)).toBe(value);
    // it redacts what is added after
    redactor.add('abc');
    expect(redactor.text('abc')).toBe('[redacted]');
  });
});

describe('configured credentials', () => {
  test("a URL's userinfo, query and fragment: the URL as given and normalized, and the parts alone", () => {
    registerUrlSecrets('http://bot:pw-9f8e7d@127.0.0.1:7/mcp?token=tok-1a2b3c&x=1#frag-4d5e');
    expect(
      configuredSecrets.text(
        'GET http://bot:pw-9f8e7d@127.0.0.1:7/mcp?token=tok-1a2b3c&x=1#frag-4d5e failed',
      ),
    ).toBe('GET http://[redacted]@127.0.0.1:7/mcp?[redacted]#[redacted] failed');
    expect(
      configuredSecrets.text('password pw-9f8e7d, token tok-1a2b3c, ?token=tok-1a2b3c&x=1'),
    ).toBe('password [redacted], token [redacted], ?[redacted]');
    expect(configuredSecrets.text('x=1 stays')).toBe('x=1 stays');
  });

  test('header values (and a Bearer token alone), and env values except short and ordinary ones', () => {
    registerHeaderSecrets({ Authorization: 'Bearer hdr-7a7a7a' });
    registerEnvSecrets({
      CI: '1',
      MODE: 'debug',
      PATH: '/usr/local/bin:/usr/bin',
      DEPLOY_TOKEN: 'env-3c3c3c',
    });
    expect(
      configuredSecrets.text(
        'Bearer hdr-7a7a7a / hdr-7a7a7a / env-3c3c3c / 1 debug /usr/local/bin:/usr/bin',
      ),
    ).toBe('[redacted] / [redacted] / [redacted] / 1 debug /usr/local/bin:/usr/bin');
  });

  test('the error-to-data codec removes them: for traces and events, and for journal records', () => {
    registerEnvSecrets({ SERVICE_KEY: 'svc-5e5e5e5e' });
    const error = new Error('server said: svc-5e5e5e5e');
    for (const data of [errorData(error), errorData(error, { blame: true })])
      expect(data.message).toBe('server said: [redacted]');
  });

  test('a thrown value that is not an Error is described, never "undefined" alone', () => {
    expect(errorData(undefined)).toEqual({
      name: 'Error',
      message: 'undefined was thrown instead of an Error',
    });
    expect(errorData(null).message).toBe('null was thrown instead of an Error');
    expect(errorData({ reason: 'x' }).message).toBe(
      '{"reason":"x"} was thrown instead of an Error',
    );
    expect(errorData('plain text').message).toBe('plain text');
  });
});
