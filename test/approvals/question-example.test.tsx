// examples/questions/ship.tsx, as docs/questions.md shows it: two questions answered by the
// script offline, then the deploy with the answers.
import { fileURLToPath } from 'node:url';
import { inspect, run } from 'june';
import { questionsIn, toolCallsIn } from 'june/evals';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import Ship from '../../examples/questions/ship.js';

const scriptPath = fileURLToPath(
  new URL('../../examples/questions/ship.script.json', import.meta.url),
);

describe('examples/questions/ship.tsx', () => {
  it('declares two questions beside the deploy tool', async () => {
    const report = await inspect(<Ship />);
    // a question always waits for its answer
    expect(report.agents[0]!.tools).toEqual([
      { name: 'ask_env', needsApproval: true, source: '<Question name="ask_env">' },
      { name: 'ask_notes', needsApproval: true, source: '<Question name="ask_notes">' },
      { name: 'deploy', needsApproval: false, source: '<Tool name="deploy">' },
    ]);
  });

  it('runs offline: the script answers both questions, and the deploy uses the answers', async () => {
    const model = scriptedModel(scriptPath);
    const result = await run(<Ship />, { model, approvalSources: [model.approvals] }).result;
    expect(result.output).toBe('Deployed 1.2.0 ("Faster builds") to staging, as ana asked.');
    expect(
      questionsIn(result.trace).map(({ name, prompt, answer, answeredBy }) => ({
        name,
        prompt,
        answer,
        answeredBy,
      })),
    ).toEqual([
      { name: 'ask_env', prompt: 'Where should 1.2.0 go?', answer: 'staging', answeredBy: 'ana' },
      {
        name: 'ask_notes',
        prompt: 'What title and highlights should the 1.2.0 notes have?',
        answer: { title: 'Faster builds', highlights: ['cached modules', '--dry-run'] },
        answeredBy: 'ana',
      },
    ]);
    expect(toolCallsIn(result.trace, 'deploy')[0]!.output).toBe(
      'Deployed 1.2.0 ("Faster builds") to staging',
    );
    model.assertAllTurnsUsed();
  });
});
