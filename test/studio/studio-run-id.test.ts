import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startStudio } from '../../src/studio/index.js';

test('a run id that is not valid percent-encoding gets 400 saying so, not `no run "undefined"`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'june-studio-id-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  const studio = await startStudio({ dir, port: 0, assetsDir: dir });
  try {
    const response = await fetch(`${studio.url}api/runs/run%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error:
        'june: the run id in /api/runs/run%E0%A4%A is not valid percent-encoding (each % must start a %XX escape); encode the id with encodeURIComponent.',
    });
  } finally {
    await studio.close();
  }
});
