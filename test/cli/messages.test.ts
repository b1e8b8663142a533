import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, tempProject } from './cli-harness.js';

let project: ReturnType<typeof tempProject>;
const flow = (catching: boolean) => `import { Agent, Catch, Step } from 'june';
import { scriptedModel } from 'june/testing';

const model = scriptedModel({ steps: { apology: [{ text: 'Sorry, no summary today.' }] } });
const summary = <Step id="summary" prompt={({ steps }) => (steps.draft as { title: string }).title} />;

export default function Flow() {
  return (
    <Agent model={model}>
      ${catching ? '<Catch fallback={() => <Step id="apology" prompt="Apologise" />}>{summary}</Catch>' : '{summary}'}
    </Agent>
  );
}
`;
beforeAll(() => {
  project = tempProject();
  project.write('caught/flow.tsx', flow(true));
  project.write('uncaught/flow.tsx', flow(false));
});
afterAll(() => project.remove());

const thrown = `june: the prompt function of <Step id="summary"> at flow.tsx:5:17 threw: Cannot read properties of undefined (reading 'title')`;

describe('june run names what failed, and where', () => {
  it('says when a <Catch> gave up and rendered its fallback', async () => {
    const result = await june(['run', 'flow.tsx'], project.folder('caught'));
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(
      `✗ ${thrown} (<Catch> gave up after 1 attempt; rendering its fallback)\n▸ apology Apologise\n`,
    );
    expect(result.code).toBe(0);
  });

  it('a prompt function that throws: its step, and the line that threw', async () => {
    const result = await june(['run', 'flow.tsx'], project.folder('uncaught'));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${thrown} (at flow.tsx:5:94)\n`);
  });
});
