import { request as httpRequest } from 'node:http';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { startJune } from '../cli/cli-harness.js';
import { recordRelease } from '../fixtures/studio/workflows.js';
import { openStudio, runsDir } from './support.js';

// Who may use Studio: the Host names follow the address it is bound to (plus --allow-host),
// whatever that address, and beyond loopback every API request needs the access token it
// printed. Requests go to 127.0.0.1 (or 127.0.0.2) only; the Host header is what a browser
// would send for the name it was given.

type Answer = {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
};

function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, body, headers: response.headers }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

let dir: string;
beforeAll(async () => {
  dir = await runsDir();
  await recordRelease(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('bound to another loopback address (--host 127.0.0.2)', () => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await openStudio(dir, { host: '127.0.0.2' });
  });
  afterAll(() => studio.close());

  it('answers its own address, refuses any other Host name, and needs no token', async () => {
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/$/);
    expect(studio.token).toBeUndefined();
    expect((await get(`${studio.url}api/runs`)).status).toBe(200);
    for (const host of ['evil.example', 'evil.example:80', 'localhost', '127.0.0.1']) {
      const answer = await get(`${studio.url}api/runs`, { host });
      expect(answer.status, host).toBe(403);
      expect(JSON.parse(answer.body).error, host).toMatch(
        /^june: Studio answers requests for 127\.0\.0\.2, not for the host ".+"; open it by the URL it printed, or start it with --allow-host for that name\.$/,
      );
    }
  });
});

describe('bound to every address (--host 0.0.0.0)', () => {
  let studio: Studio;
  let base: string;
  beforeAll(async () => {
    studio = await openStudio(dir, { host: '0.0.0.0', allowHosts: ['studio.example'] });
    base = studio.url.replace(/\?.*$/, '');
  });
  afterAll(() => studio.close());

  it('prints an access token in its URL, and every API request needs it', async () => {
    expect(studio.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(studio.url).toBe(`${base}?token=${studio.token}`);
    for (const path of ['api/runs', 'api/runs/anything', 'api/events']) {
      const refused = await get(`${base}${path}`);
      expect(refused.status, path).toBe(401);
      expect(JSON.parse(refused.body).error).toMatch(
        /^june: Studio needs its access token on every API request/,
      );
    }
    expect(
      (await get(`${base}api/runs`, { authorization: 'Bearer wrong-token-of-the-same-length-xx' }))
        .status,
    ).toBe(401);
    expect((await get(`${base}api/runs`, { authorization: `Bearer ${studio.token}` })).status).toBe(
      200,
    );
    expect((await get(`${base}api/runs?token=${studio.token}`)).status).toBe(200);
  });

  it('the page opened by the printed URL gets the token as a strict, HTTP-only cookie, which its API requests carry', async () => {
    const page = await get(studio.url);
    expect(page.status).toBe(200);
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    expect(page.headers['set-cookie']).toEqual([
      expect.stringMatching(/; HttpOnly; SameSite=Strict; Path=\/$/),
    ]);
    expect((await get(`${base}api/runs`, { cookie })).status).toBe(200);
    expect((await get(base)).headers['set-cookie']).toBeUndefined(); // the UI itself is public; no token, no cookie
  });

  it("keeps the Host check: loopback names, this machine's addresses and --allow-host names pass, others do not", async () => {
    const auth = { authorization: `Bearer ${studio.token}` };
    for (const host of ['127.0.0.1', 'localhost', 'studio.example', 'STUDIO.example:8080']) {
      expect((await get(`${base}api/runs`, { ...auth, host })).status, host).toBe(200);
    }
    for (const host of ['evil.example', 'studio.example.evil.example', '0.0.0.0']) {
      expect((await get(`${base}api/runs`, { ...auth, host })).status, host).toBe(403);
    }
  });
});

describe('june studio --host', () => {
  it('prints the URL with the token and the token itself; --allow-host adds a name; a bad name is refused', async () => {
    const running = startJune(
      ['studio', dir, '--host', '0.0.0.0', '--port', '0', '--allow-host', 'box.internal'],
      dir,
    );
    try {
      for (
        let tries = 0;
        !running.output().stdout.includes('Access token:') && tries < 600;
        tries++
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      const [urlLine, tokenLine] = running.output().stdout.trim().split('\n');
      const token =
        /^Access token: ([A-Za-z0-9_-]+) \(every API request needs it; the URL above carries it to the page\)$/.exec(
          tokenLine ?? '',
        )?.[1];
      expect(token).toBeDefined();
      const url =
        /^June Studio: (http:\/\/127\.0\.0\.1:\d+\/)\?token=(\S+) \(Ctrl-C to stop\)$/.exec(
          urlLine ?? '',
        );
      expect(url?.[2]).toBe(token);
      expect(
        (
          await get(`${url![1]}api/runs`, {
            host: 'box.internal',
            authorization: `Bearer ${token}`,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await get(`${url![1]}api/runs`, {
            host: 'other.internal',
            authorization: `Bearer ${token}`,
          })
        ).status,
      ).toBe(403);
    } finally {
      process.kill(running.pid, 'SIGINT');
      await running.done;
    }
    const bad = await startJune(['studio', dir, '--port', '0', '--allow-host', 'http://x/'], dir)
      .done;
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(
      'june: --allow-host takes a host name or address such as studio.example.com, got "http://x/".',
    );
  }, 60_000);
});
