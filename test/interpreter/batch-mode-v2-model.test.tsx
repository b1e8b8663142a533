import { Agent, run, Step } from 'june';
import { describe, expect, it } from 'vitest';

// A provider still on the older v2 model specification: the AI SDK takes it, but model
// middleware cannot wrap it.
const v2Model = {
  specificationVersion: 'v2' as const,
  provider: 'legacy',
  modelId: 'legacy-1',
  supportedUrls: {},
  doGenerate: async () => ({
    content: [{ type: 'text' as const, text: 'Released.' }],
    finishReason: 'stop' as const,
    usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    warnings: [],
  }),
  doStream: async () => {
    throw new Error('not used in batch mode');
  },
};

describe('batch mode with a v2 model', () => {
  it("still records each model call in the step's trace and answers", async () => {
    const handle = run(
      <Agent model={v2Model as never}>
        <Step id="ship" prompt="Ship it." />
      </Agent>,
      { stream: false },
    );
    const result = await handle.result;
    expect(result.output).toBe('Released.');
    const step = result.trace.root.children[0]!.children[0]!;
    expect(step.kind).toBe('step');
    expect(step.children.map((node) => [node.kind, node.status])).toEqual([['model', 'succeeded']]);
  });
});
