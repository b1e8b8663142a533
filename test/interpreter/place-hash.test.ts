// Node ids are hashes of their places (placeHash): the same place gives the same id in every
// process, which is how a follower matches the nodes of a run told again after a restart;
// different places of one run never share one.
import { describe, expect, it } from 'vitest';
import { placeHash } from '../../src/interpreter/place-hash.js';

describe('placeHash', () => {
  it('gives 16 hex digits, the same for the same place every time', () => {
    const place = 'n0b7c9e21f4a6d3c5\nstep:release';
    expect(placeHash(place)).toMatch(/^[0-9a-f]{16}$/);
    // fixed digits: a change to the hash would rename every node of a run told again after an upgrade
    expect(placeHash('')).toBe('488bdcb81aee8d83');
    expect(placeHash(place)).toBe('955e842a7f2695cc');
  });

  it('tells apart 200,000 places of one run, including ones a character apart', () => {
    const seen = new Set<string>();
    for (let step = 0; step < 2000; step++)
      for (let call = 1; call <= 100; call++)
        seen.add(placeHash(`n${step.toString(16)}\nmodel:gpt-5${call === 1 ? '' : `\n${call}`}`));
    expect(seen.size).toBe(200_000);
    expect(placeHash('n1\nstep:a')).not.toBe(placeHash('n1\nstep:b'));
    expect(placeHash('n1\nstep:ab')).not.toBe(placeHash('n1\nstep:ba'));
  });

  it('hashes text beyond ASCII by its UTF-16 code units', () => {
    expect(placeHash('n1\nstep:déploiement 🚀')).toMatch(/^[0-9a-f]{16}$/);
    expect(placeHash('n1\nstep:déploiement 🚀')).not.toBe(placeHash('n1\nstep:deploiement 🚀'));
  });
});
