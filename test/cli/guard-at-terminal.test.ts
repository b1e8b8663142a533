// june run --approve all on a terminal: every other request is approved by the policy, and a
// call a <Guard> escalated is asked at the terminal, with the guard and its reason.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { juneOnTerminal, nodesOf, onlyTrace, repoRoot, tempProject } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'guards.tsx');
const script = join(repoRoot, 'examples', 'guards.script.json');
/** The last of the prompt's choices: once it is on screen, the prompt takes keys. */
const CHOICES = 'a) Answer instead of the tool';

describe("june run --approve all and a guard's escalation", () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  it('asks at the terminal, showing the guard and its reason, and the call runs once approved', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script, '--approve', 'all'],
      project.dir,
      [{ when: CHOICES, type: 'y\r' }],
    );
    expect(code).toBe(0);
    expect(screen).toMatch(
      /escalated by the guard .*release-policy.*: a deploy to prod needs a person/,
    );
    expect(screen).toContain('Deployed to prod');
    const deploys = nodesOf(onlyTrace(project.dir)).filter((node) => node.name === 'deploy');
    expect(deploys.map((node) => node.approval?.source)).toEqual([undefined, 'terminal']);
  });
});
