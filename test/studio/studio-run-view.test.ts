import type { Trace } from 'june';
import { describe, expect, it } from 'vitest';
import { recordRelease, recordResearch } from '../fixtures/studio/workflows.js';
import { screenshot, useStudioPage } from './support.js';

describe('June Studio: a run', () => {
  let release: Trace;
  let research: Trace;
  const ui = useStudioPage(async (dir) => {
    release = await recordRelease(dir);
    research = await recordResearch(dir);
  });

  /** Opens a run in a freshly loaded Studio and waits for its tree. */
  async function openRun(trace: Trace): Promise<void> {
    await ui.page.goto('about:blank');
    await ui.page.goto(`${ui.studio.url}#/runs/${encodeURIComponent(trace.runId)}`);
    await ui.page.locator('[role=treeitem]').first().waitFor();
  }
  const row = (kind: string, name: string) =>
    ui.page.locator(`[role=treeitem][data-kind="${kind}"][data-name="${name}"]`);
  const rowTexts = () =>
    ui.page
      .locator('[role=treeitem]')
      .evaluateAll((rows) =>
        rows.map(
          (r) =>
            `${'  '.repeat(Number(r.getAttribute('aria-level')) - 1)}${r.getAttribute('data-kind')} ${r.getAttribute('data-name')} ${r.getAttribute('data-status')}`,
        ),
      );
  const section = (name: string) => ui.page.getByTestId('inspector').getByTestId(name);
  /** A section's text without its title. */
  const sectionText = async (name: string) =>
    (await section(name).locator(':scope > :not(h3)').allInnerTexts()).join('\n');
  const tableRows = (name: string) =>
    section(name)
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) =>
          Array.from(r.querySelectorAll('td')).map((td) => (td as HTMLElement).innerText.trim()),
        ),
      );

  it('shows the trace tree: run, agents, steps, model calls, tool calls, and the child run of a composite call under it', async () => {
    await openRun(research);
    expect(await rowTexts()).toEqual([
      'run Research succeeded',
      '  agent writer succeeded',
      '    step report succeeded',
      '      model gpt-5-mini succeeded',
      '      tool research succeeded',
      '        run research succeeded',
      '          agent researcher succeeded',
      '            step findings succeeded',
      '              model gpt-5-mini succeeded',
      '              tool search succeeded',
      '              tool readFile succeeded',
      '              model gpt-5-mini succeeded',
      '      model gpt-5-mini succeeded',
      '    agent reviewer succeeded',
      '      step review succeeded',
      '        model gpt-5-mini succeeded',
      '        tool readFile succeeded',
      '        model gpt-5-mini succeeded',
    ]);
    // Each row has its status, duration, tokens and cost; tokens and costs add up level by level.
    const [, , duration, tokens, cost] = await ui.page
      .locator('[role=treeitem][data-kind=run]')
      .first()
      .locator(':scope > span')
      .allInnerTexts();
    expect(duration).toMatch(/^\d+ ms$|^\d+\.\d+ s$/);
    expect(tokens).toBe(research.root.usage!.totalTokens!.toLocaleString('en-US'));
    // 2,490 input tokens at $1.25 and 135 output tokens at $10 per million
    expect(cost).toBe('$0.0045');
    expect(await row('tool', 'research').locator('.cell-num').nth(1).innerText()).toBe('627');
    // the composite call costs what its child run's two calls cost: 580 in, 47 out
    expect(await row('tool', 'research').getByTestId('row-cost').innerText()).toBe('$0.0012');
    expect(await ui.page.getByTestId('run-cost').innerText()).toBe('$0.0045');

    await row('tool', 'research').locator('button.toggle').click();
    expect(await ui.page.locator('[role=treeitem]').count()).toBe(11);
    await row('tool', 'research').locator('button.toggle').click();
    expect(await ui.page.locator('[role=treeitem]').count()).toBe(18);
  });

  it('an agent lists its own tools under Capabilities, with the source and composite', async () => {
    await openRun(research);
    await row('agent', 'writer').click();
    expect(await tableRows('capabilities')).toEqual([
      ['readFile', '<Tool name="readFile">', 'not called', '0'],
      ['research composite', '<Tool name="research">', 'not asked', '1'],
    ]);
    expect(await section('inherited').innerText()).toContain('Nothing inherited.');
  });

  it('an agent that inherited a tool shows it under Inherited, with what it was granted from', async () => {
    await openRun(research);
    await row('agent', 'reviewer').click();
    expect(await section('capabilities').innerText()).toContain(
      'Nothing declared here; every tool is inherited.',
    );
    expect(await tableRows('inherited')).toEqual([
      [
        'readFile',
        '<Tool name="readFile"> in the enclosing <Agent>\nthrough <Inherit capabilities={["readFile"]}>',
        'not asked',
        '1',
      ],
    ]);
    await screenshot(ui.page, 'agent');

    // The count of calls selects the agent's first call of that tool.
    await section('inherited').locator('button.link').click();
    expect(await ui.page.getByTestId('inspector').getAttribute('data-name')).toBe('readFile');
    expect(await section('input').innerText()).toContain('"path": "report.md"');
  });

  it('a composite tool call shows its input, its output and its child run; the child run opens from the call', async () => {
    await openRun(research);
    await row('tool', 'research').click();
    expect(await section('input').innerText()).toContain(
      '"question": "How does React Suspense work?"',
    );
    expect(await sectionText('output')).toBe(
      'Suspense lets a component wait for data and shows a fallback meanwhile.',
    );
    const child = section('child-run');
    expect(await sectionText('child-run')).toMatch(/^research\s+\S+\s+succeeded\s+627 tokens/);
    await screenshot(ui.page, 'composite');

    await child.locator('button.link').click();
    const inspector = ui.page.getByTestId('inspector');
    expect(await inspector.getAttribute('data-kind')).toBe('run');
    expect(await section('run').innerText()).toMatch(
      /Called by\s+the tool call research call_report_1_1/,
    );

    // Inside the child run, the researcher inherited readFile from the calling agent.
    await row('agent', 'researcher').click();
    expect(await tableRows('capabilities')).toEqual([
      ['search', '<Tool name="search">', 'not asked', '1'],
    ]);
    expect(await tableRows('inherited')).toEqual([
      [
        'readFile',
        '<Tool name="readFile"> in the enclosing <Agent>\nthrough <Inherit capabilities={["readFile"]}>',
        'not asked',
        '1',
      ],
    ]);
  });

  it('a step shows its prompt, its result and the messages it added', async () => {
    await openRun(research);
    await row('step', 'findings').click();
    expect(await sectionText('prompt')).toBe('Research: How does React Suspense work?');
    expect(await sectionText('result')).toBe(
      'Suspense lets a component wait for data and shows a fallback meanwhile.',
    );
    const messages = await section('messages').locator('.message').allInnerTexts();
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(
      /^ASSISTANT\ncalls search call_research:findings_1_1\n\{\n {2}"query": "react suspense"\n\}\ncalls readFile/,
    );
    expect(messages[1]).toMatch(
      /^TOOL\nresult of search .*\n\[\n {2}"react suspense: the React docs"/,
    );
    expect(messages[2]).toBe(
      'ASSISTANT\nSuspense lets a component wait for data and shows a fallback meanwhile.',
    );
  });

  it('a tool call shows the approval it waited for and the answer: a policy, or a person with a reason', async () => {
    await openRun(release);
    const deploys = ui.page.locator('[role=treeitem][data-kind=tool][data-name=deploy]');
    expect(
      await deploys.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))),
    ).toEqual(['succeeded', 'denied']);
    expect(await deploys.locator('.hint').allInnerTexts()).toEqual([
      'approval: approved (auto)',
      'approval: denied',
    ]);

    await deploys.first().click();
    expect(await section('input').innerText()).toContain('"env": "staging"');
    expect(await section('approval').innerText()).toMatch(
      /Request\s+aitxt-\S+\s+Answer\s+approved\s+Answered by\s+a policy \(automatic\)$/,
    );
    expect(await sectionText('output')).toBe('Deployed to staging');

    await deploys.last().click();
    expect(await section('approval').innerText()).toMatch(
      /Answer\s+denied\s+Answered by\s+a person\s+Reason\s+not on a Friday$/,
    );
    await screenshot(ui.page, 'approval');

    await row('agent', 'releaser').click();
    expect(await tableRows('capabilities')).toEqual([
      ['readFile', '<Tool name="readFile">', 'not asked', '1'],
      ['deploy', '<Tool name="deploy">', 'asked: 1 approved (auto), 1 denied', '2'],
    ]);
  });

  it("a model call shows its cost and the price it was charged at; a run whose model has no price says how many calls' cost is unknown", async () => {
    await openRun(research);
    await row('model', 'gpt-5-mini').first().click();
    const facts = await ui.page.getByTestId('inspector').innerText();
    // 600 input tokens at $1.25 and 30 output tokens at $10 per million
    expect(facts).toMatch(/Cost\s+\$0\.0011\b/);
    expect(facts).toMatch(
      /Price\s+prices option "june:gpt-5-mini": \$1\.25 in, \$10\.00 out per million tokens/,
    );

    await openRun(release);
    expect(await ui.page.getByTestId('run-cost').innerText()).toMatch(
      /^cost unknown for \d+ calls$/,
    );
    expect(await row('run', release.root.name).getByTestId('row-cost').innerText()).toBe('');
  });

  it('moves through the tree with the keyboard', async () => {
    await openRun(release);
    await ui.page.getByTestId('tree').focus();
    await ui.page.keyboard.press('ArrowDown');
    expect(await ui.page.getByTestId('inspector').getAttribute('data-name')).toBe('releaser');
    await ui.page.keyboard.press('ArrowLeft'); // collapses the agent
    expect(await ui.page.locator('[role=treeitem]').count()).toBe(2);
    await ui.page.keyboard.press('ArrowRight'); // expands it again
    await ui.page.keyboard.press('ArrowRight'); // to its first child
    expect(await ui.page.getByTestId('inspector').getAttribute('data-name')).toBe('release');
    await ui.page.keyboard.press('End');
    expect(await ui.page.getByTestId('inspector').getAttribute('data-kind')).toBe('model');
  });
});
