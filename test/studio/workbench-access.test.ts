import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Studio } from '../../src/studio/index.js';
import { tempProject, traces } from '../cli/cli-harness.js';
import { deployFlow, deployScript, postAnswer } from './deploy-run.js';
import { eventually, openStudio } from './support.js';
import { entries, envProps, pageHeaders, rawPost, testCatalog } from './workbench-support.js';

// Starting runs, trying tools and chatting are the most dangerous requests Studio has: each
// runs the project's code. A request from another site, without the answer token, or through
// another host name (DNS rebinding) starts nothing and writes nothing: no run folder, no
// trace, no tool side effect. Requests Studio's own page could send but that are wrong
// (an id the catalog did not find, a script outside the project, props that do not fit)
// are refused with a `june:` message, before anything starts.

describe('Studio workbench: who may start runs, try tools and chat', () => {
  let project: ReturnType<typeof tempProject>;
  let studio: Studio;
  const runs = () => join(project.dir, '.june', 'runs');
  const nothingHappened = () => {
    expect(entries(runs())).toEqual([]);
    expect(existsSync(join(project.dir, 'deploys.log'))).toBe(false);
  };

  beforeAll(async () => {
    project = tempProject();
    project.write('flow.tsx', deployFlow().replace('<Agent model', '<Agent name="release" model'));
    project.write('flow.script.json', deployScript);
    project.write('../outside.script.json', deployScript);
    studio = await openStudio(runs(), {
      workbench: testCatalog(project.dir, {
        'flow.tsx': { propsSchema: envProps, takesMessages: true },
      }),
    });
  }, 120_000);
  afterAll(async () => {
    await studio?.close();
    project?.remove();
  });

  const start = { props: { env: 'staging' }, model: { kind: 'script', path: 'flow.script.json' } };
  const tool = { agent: 'release', tool: 'deploy', input: { env: 'staging' }, props: { env: 'x' } };
  const chat = {
    id: 'chat-1',
    messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  };
  const requests = [
    ['runs', start],
    ['tools', tool],
    ['chat', chat],
  ] as const;
  const at = (what: string, id = 'flow.tsx') =>
    `${studio.url}api/workflows/${encodeURIComponent(id)}/${what}`;

  it.each(requests)(
    'POST /%s from another site is refused (403) and starts nothing',
    async (what, body) => {
      const answer = await rawPost(at(what), body, {
        ...pageHeaders(studio.url, studio.answerToken),
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
      });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('studio-request-refused');
      expect(answer.body.error).toMatch(/^june: Studio takes answers only from its own page/);
      nothingHappened();
    },
  );

  it.each(requests)(
    'POST /%s without the answer token is refused (401) and starts nothing',
    async (what, body) => {
      const { authorization: _token, ...rest } = pageHeaders(studio.url, studio.answerToken);
      const answer = await rawPost(at(what), body, rest);
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('studio-request-refused');
      const wrong = await rawPost(at(what), body, { ...rest, authorization: 'Bearer nope' });
      expect(wrong.status).toBe(401);
      nothingHappened();
    },
  );

  it.each(requests)(
    'POST /%s through a rebinding host name is refused (403) and starts nothing',
    async (what, body) => {
      const port = new URL(studio.url).port;
      const answer = await rawPost(at(what), body, {
        ...pageHeaders(studio.url, studio.answerToken),
        host: `evil.example:${port}`,
        origin: `http://evil.example:${port}`,
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatch(
        /^june: Studio answers requests for .*not for the host "evil\.example"/,
      );
      nothingHappened();
    },
  );

  it('refuses a workflow the catalog did not find, a path included (404)', async () => {
    for (const id of ['other.tsx', '../outside.tsx', join(project.dir, 'flow.tsx')]) {
      const answer = await rawPost(
        at('runs', id),
        start,
        pageHeaders(studio.url, studio.answerToken),
      );
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('studio-workflow-unknown');
      expect(answer.body.error).toMatch(/^june: no workflow .* the list at \/api\/workflows/);
    }
    nothingHappened();
  });

  it('refuses a script outside the project, a missing one, and a provider without its environment (400)', async () => {
    const headers = pageHeaders(studio.url, studio.answerToken);
    const outside = await rawPost(
      at('runs'),
      { ...start, model: { kind: 'script', path: '../outside.script.json' } },
      headers,
    );
    expect(outside.status).toBe(400);
    expect(outside.body.code).toBe('studio-model-invalid');
    expect(outside.body.error).toMatch(
      /^june: the script "\.\.\/outside\.script\.json" is outside the project/,
    );
    const missing = await rawPost(
      at('runs'),
      { ...start, model: { kind: 'script', path: 'nope.json' } },
      headers,
    );
    expect(missing.body.error).toMatch(
      /^june: the script "nope\.json" does not exist in the project/,
    );
    const replay = await rawPost(
      at('runs'),
      { ...start, model: { kind: 'replay', runId: '../x' } },
      headers,
    );
    expect(replay.body.code).toBe('studio-model-invalid');
    if (!process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
      const provider = await rawPost(
        at('runs'),
        { ...start, model: { kind: 'provider' } },
        headers,
      );
      expect(provider.status).toBe(400);
      expect(provider.body.error).toMatch(/set OPENAI_API_KEY or OPENAI_BASE_URL/);
    }
    nothingHappened();
  });

  it('refuses props that do not fit the schema (400), naming the field', async () => {
    const headers = pageHeaders(studio.url, studio.answerToken);
    const answer = await rawPost(at('runs'), { ...start, props: { env: 3 } }, headers);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('studio-props-invalid');
    expect(answer.body.error).toMatch(
      /^june: the props do not fit flow\.tsx's props schema: env: /,
    );
    const tried = await rawPost(at('tools'), { ...tool, props: [] }, headers);
    expect(tried.body.code).toBe('studio-props-invalid');
    nothingHappened();
  });

  it('takes no other method on the workbench routes (405)', async () => {
    const answer = await fetch(at('runs'), {
      method: 'PUT',
      headers: { authorization: `Bearer ${studio.answerToken}` },
    });
    expect(answer.status).toBe(405);
    nothingHappened();
  });
  it('starts the run when the same request comes from its page (the control)', async () => {
    const headers = pageHeaders(studio.url, studio.answerToken);
    const answer = await rawPost(at('runs'), start, headers);
    expect(answer.status).toBe(202);
    const { runId } = answer.body as { runId: string };
    expect(existsSync(join(runs(), `${runId}.json`))).toBe(true);
    const waiting = await eventually(async () => {
      const list = await (await fetch(`${studio.url}api/runs/${runId}/approvals`)).json();
      expect(list.waiting).toHaveLength(1);
      return list.waiting[0].key as string;
    }, 60_000);
    const denied = await postAnswer(
      `${studio.url}api/runs/${runId}/approvals`,
      { key: waiting, approved: false, reason: 'a test' },
      studio.answerToken,
    );
    expect(denied.status).toBe(202);
    await eventually(
      () => expect(traces(project.dir).get(`${runId}.json`)?.status).toBe('succeeded'),
      60_000,
    );
    expect(existsSync(join(project.dir, 'deploys.log'))).toBe(false);
  }, 120_000);
});
