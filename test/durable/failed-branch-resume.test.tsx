// Resuming a run that failed at a model call: the failed call is made again when nothing after
// it in its own line of work (its <Parallel> branch, its composite call, what encloses them)
// depends on it, even when another branch's records came after it in the journal; a failure
// that something after it in its own branch depends on stays history.
import { tool } from 'ai';
import { Agent, Catch, memoryJournalStore, Parallel, run, Step, Tool } from 'june';
import { scriptAfterJournal, scriptedModel, type ModelScript } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const readFile = tool({
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `contents of ${path}`,
});

/** Two reviews, one at a time, both run whatever fails ("user" first), then a summary. */
function Review({ model }: { model: ReturnType<typeof scriptedModel> }) {
  return (
    <Agent model={model}>
      <Tool name="readFile" value={readFile} />
      <Parallel limit={1} mode="settle-all">
        <Step key="user" id="review-user" prompt="Review user.ts" />
        <Step key="cart" id="review-cart" prompt="Review cart.ts" />
      </Parallel>
      <Step id="summary" prompt="Summarize" />
    </Agent>
  );
}

const reviewed = {
  'review-user': 'user.ts reviewed',
  'review-cart': 'cart.ts reviewed',
  summary: 'all reviewed',
};

const review = (path: string) => [
  { toolCalls: [{ id: `read_${path}`, tool: 'readFile', input: { path } }] },
  { text: `${path} reviewed` },
];

const fixed: ModelScript = {
  $comment: 'Test fixture',
  steps: {
    'review-user': review('user.ts'),
    'review-cart': review('cart.ts'),
    summary: [{ text: 'all reviewed' }],
  },
};

describe('resuming a run whose <Parallel> branch failed at a model call', () => {
  it("makes the failed branch's call again, while the other branch's later records replay", async () => {
    const store = memoryJournalStore();
    const broken = scriptedModel({
      $comment: 'Test fixture: no turns for review-user',
      steps: { 'review-cart': review('cart.ts') },
    });
    const first = run(<Review model={broken} />, { journal: store });
    await expect(first.result).rejects.toThrow(/parallel|review-user/);
    // the cart branch ran after the user branch failed: its records come after the failure
    const records = await store.read(first.runId);
    const failure = records.findIndex(
      (record) => record.type === 'model-call' && record.answer.error !== undefined,
    );
    expect(
      records.findLastIndex((record) => 'step' in record && record.step === 'review-cart'),
    ).toBeGreaterThan(failure);

    // the script without the turns the journal answered (as june run --resume --script): the
    // failed call is made again, so it keeps its turn
    const model = scriptedModel(scriptAfterJournal(fixed, records));
    const resumed = await run(<Review model={model} />, {
      journal: store,
      resume: first.runId,
    }).result;
    expect(resumed.output).toEqual(reviewed);
    // the failed call and what follows it are made; the cart branch is answered by the journal
    expect(model.calls.map((call) => `${call.step} ${call.turn}`)).toEqual([
      'review-user 1',
      'review-user 2',
      'summary 1',
    ]);

    // resumed once more: every call is answered by the journal
    const again = scriptedModel({ $comment: 'Test fixture', steps: {} });
    const third = await run(<Review model={again} />, { journal: store, resume: first.runId })
      .result;
    expect(third.output).toEqual(reviewed);
    expect(again.calls).toEqual([]);
  });

  it('a call that failed again on a resume is made again on the next one', async () => {
    const store = memoryJournalStore();
    const failing = () =>
      scriptedModel({
        $comment: 'Test fixture: review-user fails',
        steps: { 'review-user': [{ error: 'overloaded' }], 'review-cart': review('cart.ts') },
      });
    const first = run(<Review model={failing()} />, { journal: store });
    await expect(first.result).rejects.toThrow();
    const second = run(<Review model={failing()} />, { journal: store, resume: first.runId });
    await expect(second.result).rejects.toThrow();

    const model = scriptedModel(fixed);
    const third = await run(<Review model={model} />, { journal: store, resume: first.runId })
      .result;
    expect(third.output).toEqual(reviewed);
    expect(model.calls.map((call) => `${call.step} ${call.turn}`)).toEqual([
      'review-user 1',
      'review-user 2',
      'summary 1',
    ]);
  });

  it("a failure its own branch's <Catch> retried stays history", async () => {
    const store = memoryJournalStore();
    const Caught = ({ model }: { model: ReturnType<typeof scriptedModel> }) => (
      <Agent model={model}>
        <Tool name="readFile" value={readFile} />
        <Parallel limit={1} mode="settle-all">
          <Catch key="user" retries={1}>
            <Step id="review-user" prompt="Review user.ts" />
          </Catch>
          <Step key="cart" id="review-cart" prompt="Review cart.ts" />
        </Parallel>
      </Agent>
    );
    const first = run(
      <Caught
        model={scriptedModel({
          $comment: 'Test fixture: the first attempt fails, the last call fails too',
          steps: {
            'review-user': [{ error: 'overloaded' }, { text: 'user.ts reviewed' }],
            'review-cart': [{ error: 'down' }],
          },
        })}
      />,
      { journal: store },
    );
    await expect(first.result).rejects.toThrow();

    const model = scriptedModel({
      $comment: 'Test fixture',
      steps: { 'review-user': [{ text: 'not asked' }], 'review-cart': [{ text: 'cart ok' }] },
    });
    const resumed = await run(<Caught model={model} />, { journal: store, resume: first.runId })
      .result;
    // the user branch's failed attempt and its retry replay; only the cart's failed call is made
    expect(model.calls.map((call) => call.step)).toEqual(['review-cart']);
    expect(resumed.output).toEqual({ 'review-user': 'user.ts reviewed', 'review-cart': 'cart ok' });
  });
});
