// june run --approve all on a terminal: a <Budget> spent before a model call is asked at the
// terminal (the blanket policy does not answer it), allowing more or failing the run.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { juneOnTerminal, repoRoot, tempProject } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'budgets.tsx');
const script = join(repoRoot, 'examples', 'budgets.script.json');
/** The last of the prompt's choices: once it is on screen, the prompt takes keys. */
const CHOICES = 'n) No, the run fails';

describe("june run --approve all and a budget's request", () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  it('asks at the terminal what was spent and the cap; yes goes on', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script, '--approve', 'all'],
      project.dir,
      [{ when: CHOICES, type: 'y\r' }],
    );
    expect(screen).toContain(
      'the budget "research" spent 1,550 tokens of 1,500 tokens; allow 1,500 tokens more?',
    );
    expect(screen).toContain('✓ approved more for the budget research');
    expect(code).toBe(0);
  });

  it('no fails the run with budget-exceeded', async () => {
    const { code, screen } = await juneOnTerminal(
      ['run', example, '--script', script, '--approve', 'all'],
      project.dir,
      [{ when: CHOICES, type: 'n\r' }],
    );
    expect(screen).toContain(
      'is spent: the model calls beneath it spent 1,550 tokens of 1,500 tokens, and more was denied',
    );
    expect(code).toBe(1);
  });
});
