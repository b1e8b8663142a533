// A --database value that is not a PostgreSQL URL is refused before any connection, saying
// what a URL looks like, instead of reaching the driver (which reads `localhost/june` as a
// host named "base") or showing any part of the value, which may hold a password.
import { describe, expect, it } from 'vitest';
import { probeDatabase } from '../../src/dbos/database-probe.js';

describe('probeDatabase: the URL', () => {
  it.each([
    'localhost/june',
    'localhost:5432/june',
    'user:secret-pw@db:5432/june',
    'mysql://db/june',
  ])('refuses %s before connecting', async (value) => {
    const error = await probeDatabase(value, false).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'database-url-invalid' });
    expect((error as Error).message).toMatch(/^june: --database takes a PostgreSQL URL/);
    expect((error as Error).message).toContain('postgresql://localhost:5432/june');
    expect((error as Error).message).not.toContain('secret-pw');
  });
});
