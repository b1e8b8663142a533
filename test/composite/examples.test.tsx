import { listThread, memoryJournalStore, run, type CompositeToolResult } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import Article from '../../examples/article.js';
import Report from '../../examples/report.js';
import Review from '../../examples/parallel.js';
import Threads from '../../examples/threads.js';
import { findNode } from './support.js';

// The examples run offline from their scripts, as `june run <example> --script <script>` does.
describe('examples', () => {
  it('report.tsx: the writer calls research, whose own agent searches', async () => {
    const model = scriptedModel('examples/report.script.json');
    const result = await run(<Report />, { model }).result;

    expect(result.output).toMatch(/^Suspense lets a component wait/);
    const research = findNode(result.trace.root, 'tool', 'research');
    expect(research.input).toEqual({ question: 'How does React Suspense work?' });
    const { output, trace } = research.output as CompositeToolResult;
    expect(output).toMatch(/^Findings: /);
    const searches = trace.root.children[0]!.children[0]!.children.filter(
      (node) => node.kind === 'tool',
    );
    expect(searches.map((node) => node.input)).toEqual([
      { query: 'suspense fallback' },
      { query: 'suspense data loading' },
    ]);
    expect(searches[0]!.output).toContain('nearest <Suspense> fallback');
    expect(findNode(result.trace.root, 'agent', 'agent').capabilities).toEqual([
      { name: 'research', source: '<Tool name="research">', composite: true },
    ]);
    model.assertAllTurnsUsed();
  });

  it('article.tsx: the writer calls the defined researcher, step researcher:answer', async () => {
    const model = scriptedModel('examples/article.script.json');
    const result = await run(<Article />, { model }).result;

    expect(result.output).toMatch(/^# Waiting, gracefully: React Suspense/);
    const call = findNode(result.trace.root, 'tool', 'researcher');
    const { output, trace } = call.output as CompositeToolResult;
    expect(output).toMatch(/^Suspense shows the nearest <Suspense> fallback/);
    const agent = findNode(trace.root, 'agent', 'researcher');
    expect(agent.capabilities).toEqual([{ name: 'search', source: '<Tool name="search">' }]);
    expect(findNode(agent, 'step', 'answer').prompt).toBe(
      'Research: How does React Suspense work, and what does it wait for?',
    );
    expect(findNode(result.trace.root, 'agent', 'agent').capabilities).toEqual([
      { name: 'researcher', source: '<researcher>', composite: true },
    ]);
    expect(model.calls.map((c) => c.step)).toEqual([
      'write',
      'researcher:answer',
      'researcher:answer',
      'researcher:answer',
      'write',
    ]);
    // The researcher's model got its instructions and a prompt built from the input alone.
    expect(model.calls[1]!.prompt).toEqual([
      { role: 'system', content: 'You research carefully and cite what you find.' },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Research: How does React Suspense work, and what does it wait for?',
          },
        ],
      },
    ]);
    model.assertAllTurnsUsed();
  });

  it('parallel.tsx: four reviews, two at once, joined in order before the summary', async () => {
    const model = scriptedModel('examples/parallel.script.json');
    const result = await run(<Review />, { model }).result;

    expect(result.output).toMatchObject({ summary: expect.stringMatching(/^1\. user\.ts/) });
    const parallel = findNode(result.trace.root, 'parallel', 'parallel');
    expect(parallel).toMatchObject({
      branches: ['cart.ts', 'price.ts', 'user.ts', 'stock.ts'],
      limit: 2,
      mode: 'fail-fast',
    });
    // the summary's conversation holds each review in the order the branches are written
    const summary = model.calls.find((call) => call.step === 'summary')!;
    const reviewed = summary.prompt.flatMap((message) =>
      message.role === 'user'
        ? (message.content as Array<{ text: string }>).map((part) => part.text)
        : [],
    );
    expect(reviewed).toEqual([
      'Review cart.ts',
      'Review price.ts',
      'Review user.ts',
      'Review stock.ts',
      'List the files that need a fix, most urgent first.',
    ]);
    model.assertAllTurnsUsed();
  });

  it('threads.tsx: three runs of one thread; the third knows the order number the first was told', async () => {
    const model = scriptedModel('examples/threads.script.json');
    const journal = memoryJournalStore();
    const messages = [
      'Hi, my order A-1001 has not arrived.',
      'Can you check it again?',
      'Thanks, that is all.',
    ];
    const outputs: unknown[] = [];
    for (const message of messages) {
      const result = await run(<Threads message={message} />, { model, journal, thread: 'ana' })
        .result;
      outputs.push(result.output);
    }
    expect(outputs).toEqual([
      'Your order A-1001 shipped on 2 December and arrives on 5 December.',
      'I checked A-1001 again: it is still on its way and arrives on 5 December.',
      "You're welcome, Ana. Enjoy your order!",
    ]);
    // the second run's first call: the first run's conversation, then its own message
    const second = model.calls[2]!.prompt;
    expect(second.filter((message) => message.role === 'user').length).toBe(2);
    expect(JSON.stringify(second)).toContain('Hi, my order A-1001 has not arrived.');
    const last = model.calls.at(-1)!.prompt;
    expect(last.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(await listThread(journal, 'ana')).toHaveLength(3);
    model.assertAllTurnsUsed();
  });
});
