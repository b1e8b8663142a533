// `june serve --a2a`: the workflow file served as an A2A skill beside its MCP tool, called
// with plain JSON-RPC over HTTP as any A2A 1.0 client sends it: the approval comes back as
// an input-required task, the next message on the task answers it, and the task completes
// with the run's result as its artifact.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { script } from '../serve/fixtures/ship.js';
import { repoRoot, startJune, tempProject, type RunningJune } from './cli-harness.js';

const TOKEN = 'ci-token-0123456789abcdef';

describe('june serve --a2a', () => {
  let project: ReturnType<typeof tempProject>;
  let server: RunningJune | undefined;

  beforeEach(() => {
    project = tempProject();
    project.write('ship.tsx', readFileSync(join(repoRoot, 'test/serve/fixtures/ship.tsx'), 'utf8'));
    project.write('ship.script.json', JSON.stringify(script));
    project.write('tokens.json', JSON.stringify({ ci: TOKEN }));
  });
  afterEach(async () => {
    if (server) {
      try {
        process.kill(server.pid, 'SIGTERM');
      } catch {
        // ended already
      }
      await server.done;
      server = undefined;
    }
    project.remove();
  });

  it('serves the workflow as a skill; an approval asked and answered over JSON-RPC completes the task', async () => {
    const running = startJune(
      [
        'serve',
        'ship.tsx',
        '--a2a',
        '--port',
        '0',
        '--script',
        'ship.script.json',
        '--tokens',
        'tokens.json',
      ],
      project.dir,
    );
    server = running;
    const endpoint = await new Promise<string>((resolve, reject) => {
      const poll = setInterval(() => {
        const found = /June A2A agent: (\S+)/.exec(running.output().stdout)?.[1];
        if (found) {
          clearInterval(poll);
          resolve(found);
        }
      }, 50);
      void running.done.then(() => {
        clearInterval(poll);
        reject(new Error(`june serve ended: ${running.output().stderr}`));
      });
    });
    const headers = {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      authorization: `Bearer ${TOKEN}`,
    };
    const card = await (
      await fetch(new URL('/.well-known/agent-card.json', endpoint), { headers })
    ).json();
    expect(card.skills).toEqual([expect.objectContaining({ id: 'ship' })]);

    const rpc = async (params: unknown) => {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params }),
      });
      const body = await response.json();
      expect(body.error).toBeUndefined();
      return body.result.task;
    };
    const log = join(project.dir, 'ship.log');
    const asked = await rpc({
      message: {
        messageId: 'm1',
        role: 'ROLE_USER',
        parts: [{ data: { version: '4.0', log } }],
      },
    });
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(asked.status.message.parts).toEqual(
      expect.arrayContaining([
        {
          data: expect.objectContaining({ kind: 'approval', tool: 'ship', input: { env: 'prod' } }),
          mediaType: 'application/json',
        },
      ]),
    );

    const done = await rpc({
      message: {
        messageId: 'm2',
        role: 'ROLE_USER',
        taskId: asked.id,
        contextId: asked.contextId,
        parts: [{ data: { approve: true } }],
      },
    });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts[0].parts).toEqual([
      { data: { result: 'release shipped' }, mediaType: 'application/json' },
    ]);
    expect(readFileSync(log, 'utf8')).toBe('4.0 prod\n');
  });

  it('without @a2a-js/sdk installed, --a2a fails with a june: error naming the package, and nothing listens', async () => {
    // the package cannot be found, as in a project that did not install the optional peer
    const hook = project.write(
      'no-a2a-sdk.mjs',
      `import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('@a2a-js/sdk'))
      throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: 'ERR_MODULE_NOT_FOUND' });
    return next(specifier, context);
  },
});
`,
    );
    const running = startJune(['serve', 'ship.tsx', '--a2a', '--port', '0'], project.dir, {
      NODE_OPTIONS: `--import=${hook}`,
    });
    server = running;
    const ended = await running.done;
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toContain(
      'june: serving workflows over A2A (june serve --a2a, serveWorkflows({ a2a: true })) needs the A2A SDK',
    );
    expect(ended.stderr).toContain('npm install @a2a-js/sdk@^1.3');
    expect(ended.stdout).not.toContain('June MCP server');
  });
});
