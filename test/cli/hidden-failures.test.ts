import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, onlyTrace, tempProject } from './cli-harness.js';

// A composite tool whose body has an <Inherit> typo: the calling model sees a tool error and
// answers, so the run succeeds; june run says what failed, and --strict fails the run.
let project: ReturnType<typeof tempProject>;
beforeAll(() => {
  project = tempProject();
  for (const folder of ['plain', 'strict']) write(folder);
});
afterAll(() => project.remove());

function write(folder: string): void {
  project.write(
    `${folder}/report.tsx`,
    `import { Agent, Inherit, Step, Tool } from 'june';
import { z } from 'zod';
import { openai } from 'june/sdk/openai';

export default function Report() {
  return (
    <Agent model={openai('gpt-5-mini')}>
      <Tool name="research" input={z.object({ question: z.string() })}>
        {({ question }: { question: string }) => (
          <Agent model={openai('gpt-5-mini')}>
            <Inherit capabilities={['readFlie']} />
            <Step id="findings" prompt={question} />
          </Agent>
        )}
      </Tool>
      <Step id="report" prompt="Write the report" />
    </Agent>
  );
}
`,
  );
  project.write(
    `${folder}/report.script.json`,
    JSON.stringify({
      $comment: 'Test fixture: the model calls research, which fails, then answers anyway',
      steps: {
        report: [
          { toolCalls: [{ tool: 'research', input: { question: 'What changed?' } }] },
          { text: 'Research failed.' },
        ],
      },
    }),
  );
}

describe('june run with a failure inside a run that succeeds', () => {
  it('says how many tools failed, in the summary and on the trace', async () => {
    const cwd = project.folder('plain');
    const result = await june(['run', 'report.tsx', '--script', 'report.script.json'], cwd);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✓ succeeded in [^\n]* · 1 tool failed · /);
    expect(onlyTrace(cwd).root.failures).toEqual({ tools: 1, caught: 0 });
  });

  it('--strict fails the run with the workflow error', async () => {
    const cwd = project.folder('strict');
    const result = await june(
      ['run', 'report.tsx', '--script', 'report.script.json', '--strict'],
      cwd,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^june: strict: the tool "research" failed with a workflow error \(inherit-unknown-name\): <Inherit capabilities=\{\["readFlie"\]\}> at report\.tsx:11:13 in <Agent> at report\.tsx:10:11 names "readFlie"/,
    );
    expect(onlyTrace(cwd).status).toBe('failed');
  });
});
