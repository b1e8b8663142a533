// `june run` of a workflow whose agent compacts its conversation: each compaction is a line
// under its step, and the trace file keeps it on the agent's node.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { june, onlyTrace, repoRoot, tempProject } from './cli-harness.js';

const example = join(repoRoot, 'examples', 'compaction.tsx');
const script = join(repoRoot, 'examples', 'compaction.script.json');

describe('june run examples/compaction.tsx --script', () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject();
  });
  afterEach(() => project.remove());

  it('prints each compaction under its step and records them in the trace', async () => {
    const result = await june(['run', example, '--script', script], project.dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const compacted = lines.filter((line) => line.includes('⇣ compacted'));
    expect(compacted).toEqual([
      '  ⇣ compacted the conversation: 5 messages → a summary (9 → 5 messages)',
      '  ⇣ compacted the conversation: 5 messages → a summary (9 → 5 messages)',
    ]);
    // ticket3's comes inside its tool loop; ticket5's under ticket5's line
    const ticket5 = lines.findIndex((line) => line.startsWith('▸ ticket5'));
    expect(lines[ticket5 + 1]).toBe(compacted[1]);

    const trace = onlyTrace(project.dir);
    const agent = trace.root.children.find((node) => node.kind === 'agent')!;
    expect(agent.compactions?.map((c) => c.step)).toEqual(['ticket3', 'ticket5']);
  });
});
