import { describe, expect, test } from 'vitest';
import { jsonForm, plainJson } from '../../src/json/index.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  norm() {
    return Math.hypot(this.x, this.y);
  }
}

describe('jsonForm: one JSON form for values that are not plain JSON', () => {
  test.each([
    ['a BigInt', { bytes: 10n }, { bytes: '10' }],
    [
      'undefined fields and array items',
      { a: undefined, list: [1, undefined] },
      { list: [1, null] },
    ],
    [
      'NaN and Infinity',
      { n: Number.NaN, big: Infinity, list: [-Infinity] },
      { n: null, big: null, list: [null] },
    ],
    [
      'Dates',
      { at: new Date(0), bad: new Date(Number.NaN) },
      { at: '1970-01-01T00:00:00.000Z', bad: null },
    ],
    [
      'a Map with string keys',
      new Map<string, unknown>([
        ['a', 1],
        ['b', 2n],
      ]),
      { a: 1, b: '2' },
    ],
    [
      'a Map with other keys',
      new Map<unknown, unknown>([
        [1, 'one'],
        [{ k: 2 }, 'two'],
      ]),
      [
        [1, 'one'],
        [{ k: 2 }, 'two'],
      ],
    ],
    ['a Set', new Set(['a', new Date(0)]), ['a', '1970-01-01T00:00:00.000Z']],
    [
      'typed arrays',
      {
        u8: new Uint8Array([1, 2]),
        f: new Float64Array([0.5, Number.NaN]),
        big: new BigInt64Array([3n]),
      },
      { u8: [1, 2], f: [0.5, null], big: ['3'] },
    ],
    [
      'a Buffer and an ArrayBuffer',
      { buffer: Buffer.from('hi'), raw: new Uint8Array([7]).buffer },
      { buffer: [104, 105], raw: [7] },
    ],
    ['a class instance', new Point(3, 4), { x: 3, y: 4 }],
    [
      'functions and symbols in an object',
      { f: () => 1, s: Symbol('s'), list: [() => 1] },
      { list: [null] },
    ],
    ['an Error', new TypeError('bad'), { name: 'TypeError', message: 'bad' }],
    ['toJSON', { when: { toJSON: () => 'later' } }, { when: 'later' }],
    [
      'the same object twice (no cycle)',
      (() => {
        const shared = { n: 1 };
        return { a: shared, b: shared };
      })(),
      { a: { n: 1 }, b: { n: 1 } },
    ],
  ])('%s', (_name, value, expected) => {
    expect(jsonForm(value)).toEqual({ ok: true, value: expected });
  });

  test('a top-level undefined has no value; a function neither', () => {
    expect(jsonForm(undefined)).toEqual({ ok: true, value: undefined });
    expect(jsonForm(() => 1)).toEqual({ ok: true, value: undefined });
  });

  test('a cycle has no JSON form; the problem names its path', () => {
    const node: Record<string, unknown> = { name: 'a', children: [] };
    (node.children as unknown[]).push({ parent: node });
    expect(jsonForm(node)).toEqual({
      ok: false,
      problem: 'it refers to itself at value.children[0].parent (a cycle)',
    });
  });

  test('a getter that throws has no JSON form', () => {
    const value = {
      get secret(): string {
        throw new Error('locked');
      },
    };
    expect(jsonForm(value)).toEqual({ ok: false, problem: 'reading it threw: locked' });
  });

  test('a value that nests too deep has no JSON form; after a failed one the next converts whole', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deep = { inner: deep };
    expect(jsonForm(deep)).toEqual({ ok: false, problem: 'it nests too deep' });
    const shared = { n: 1 };
    const a: Record<string, unknown> = { shared };
    a.self = a;
    expect(jsonForm(a).ok).toBe(false);
    expect(jsonForm({ first: shared, again: [shared] })).toEqual({
      ok: true,
      value: { first: { n: 1 }, again: [{ n: 1 }] },
    });
  });

  test('plainJson never throws: a value with no JSON form becomes a string that says why', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(plainJson(a)).toBe('[no JSON form: it refers to itself at value.self (a cycle)]');
    expect(plainJson({ bytes: 10n })).toEqual({ bytes: '10' });
  });

  test('a form asked for again is the same value, not another copy; a cycle in a Map pair is named', () => {
    const form = plainJson({ rows: [{ id: 1 }], at: new Date(0) });
    expect(plainJson(form)).toBe(form);
    expect(plainJson({ wrapped: form })).toEqual({ wrapped: form });
    expect((plainJson({ wrapped: form }) as { wrapped: unknown }).wrapped).toBe(form);
    const key = { k: 1 } as Record<string, unknown>;
    key.back = key;
    expect(jsonForm(new Map([[key, 1]]))).toEqual({
      ok: false,
      problem: 'it refers to itself at value[0][0].back (a cycle)',
    });
  });
});
