import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodesOf, onlyTrace, repoRoot, startJune } from '../cli/cli-harness.js';
import { eventually, useStudioProject, waitingCards } from './support.js';

// A question's card shows its prompt and a form built from its answer schema (a select for
// a choice, one field per property for an object, JSON for an array), sends the answer in
// the tool's place, and shows a `june:` refusal with the question still there. A real
// `june run --approve studio` process takes the answers.

/** The questions example's script with its answers taken out, so Studio is asked. */
function unansweredScript(): string {
  const script = JSON.parse(
    readFileSync(join(repoRoot, 'examples', 'questions', 'ship.script.json'), 'utf8'),
  ) as { steps: { ship: Array<{ toolCalls?: Array<{ answer?: unknown }> }> } };
  for (const turn of script.steps.ship) for (const call of turn.toolCalls ?? []) delete call.answer;
  return JSON.stringify(script);
}

describe('June Studio: answering a question from the page', () => {
  const ui = useStudioProject((project) => {
    project.write(
      'flow.tsx',
      readFileSync(join(repoRoot, 'examples', 'questions', 'ship.tsx'), 'utf8'),
    );
    project.write('flow.script.json', unansweredScript());
  });
  const questionNode = (name: string) =>
    nodesOf(onlyTrace(ui.project.dir)).find((node) => node.kind === 'tool' && node.name === name)!;

  it('shows the prompt and a form; a refused answer shows the june: message and the question stays', async () => {
    const running = startJune(
      ['run', 'flow.tsx', '--script', 'flow.script.json', '--approve', 'studio'],
      ui.project.dir,
    );
    await eventually(() => {
      const pending = nodesOf(onlyTrace(ui.project.dir)).filter(
        (node) => node.kind === 'tool' && node.approval?.status === 'pending',
      );
      expect(pending).toHaveLength(2);
    }, 60_000);
    const runId = onlyTrace(ui.project.dir).runId;
    await ui.page.goto(`${ui.studio.pageUrl}#/runs/${encodeURIComponent(runId)}`);
    const env = ui.page.locator('[data-testid="approval-card"]', { hasText: 'ask_env' });
    await env.waitFor({ timeout: 60_000 });
    expect(await env.getByTestId('question-prompt').innerText()).toBe('Where should 1.2.0 go?');
    expect(await env.getByTestId('approval-input').count()).toBe(0);
    await env.getByLabel('Answer').selectOption('prod');
    await env.getByRole('button', { name: 'Send answer' }).click();
    expect(await env.getByTestId('approval-outcome').innerText()).toBe('Answered.');
    await eventually(async () => expect(await waitingCards(ui.page).count()).toBe(1), 30_000);

    const notes = ui.page.locator('[data-testid="approval-card"]', { hasText: 'ask_notes' });
    expect(await notes.getByTestId('question-prompt').innerText()).toBe(
      'What title and highlights should the 1.2.0 notes have?',
    );
    await notes.getByLabel('title', { exact: true }).fill('Faster builds');
    await notes.getByLabel('highlights', { exact: true }).fill('["a", "b", "c", "d"]');
    await notes.getByRole('button', { name: 'Send answer' }).click();
    const refused = await notes.getByTestId('approval-error').innerText();
    expect(refused).toMatch(
      /^june: the answer to the question "ask_notes" .* does not fit its answer schema: \$\.highlights/,
    );
    expect(await notes.getByTestId('question-form').count()).toBe(1);

    await notes.getByLabel('highlights', { exact: true }).fill('["cached modules"]');
    await notes.getByRole('button', { name: 'Send answer' }).click();
    expect(await notes.getByTestId('approval-outcome').innerText()).toBe('Answered.');
    expect((await running.done).code).toBe(0);
    expect(questionNode('ask_env').approval).toMatchObject({
      status: 'responded',
      source: 'studio',
      output: 'prod',
    });
    expect(questionNode('ask_notes').approval).toMatchObject({
      status: 'responded',
      output: { title: 'Faster builds', highlights: ['cached modules'] },
    });
  }, 180_000);
});
