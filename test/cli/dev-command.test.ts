import { afterEach, describe, expect, it } from 'vitest';
import { startJune, tempProject } from './cli-harness.js';

// `june dev` as a user starts it: in the project's folder, from the built command. It prints
// the URL of its Studio and how many workflows it found, serves them, and stops on Ctrl-C.

const workflow = `
import { Agent, Step, Tool } from 'june';
import { tool } from 'ai';
import { z } from 'zod';
const echo = tool({ description: 'Echo', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text });
export default function Echo() {
  return (
    <Agent name="echo" model={{} as never}>
      <Tool name="echo" value={echo} />
      <Step id="s" prompt="Say it" />
    </Agent>
  );
}
`;

const projects: Array<ReturnType<typeof tempProject>> = [];
afterEach(() => projects.splice(0).forEach((project) => project.remove()));

describe('june dev', () => {
  it('prints its URL and what it found, serves the workflows, and stops on Ctrl-C', async () => {
    const project = tempProject();
    projects.push(project);
    project.write('workflows/echo.tsx', workflow);
    project.write('node_modules/some-package/index.tsx', workflow); // never searched
    const running = startJune(['dev', '--port', '0'], project.dir);
    const deadline = Date.now() + 30_000;
    while (!running.output().stdout.includes('June dev:') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const line = running.output().stdout.trim();
    const match =
      /^June dev: (http:\/\/127\.0\.0\.1:\d+\/)\?token=\S+ \(1 workflow; watching for changes; Ctrl-C to stop\)$/.exec(
        line,
      );
    expect(match, `${line}\n${running.output().stderr}`).not.toBeNull();
    const list = await (await fetch(`${match![1]}api/workflows`)).json();
    expect(list.workflows.map((entry: { id: string }) => entry.id)).toEqual(['workflows/echo.tsx']);
    expect(list.workflows[0].map.agents[0].tools[0]).toMatchObject({
      name: 'echo',
      declaration: expect.stringMatching(/^workflows\/echo\.tsx:\d+:\d+$/),
    });
    process.kill(running.pid, 'SIGINT');
    expect((await running.done).code).toBe(0);
  }, 60_000);

  it('refuses a path outside the project, and one that does not exist, with what to do', async () => {
    const project = tempProject();
    projects.push(project);
    const outside = await startJune(['dev', '/etc', '--port', '0'], project.dir).done;
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toMatch(/^june: \/etc is outside the project /);
    const missing = await startJune(['dev', 'nope', '--port', '0'], project.dir).done;
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(
      /^june: cannot find nope \(looked for .*nope\); pass workflow files or folders of the project\./,
    );
  }, 60_000);
});
