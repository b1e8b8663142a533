// An agent's own `messages` may hold system messages, as before ai@7 (which refuses them in a
// call's messages unless told otherwise): the history is the workflow author's.
import { Agent, run, Step } from 'june';
import { describe, expect, it } from 'vitest';
import { specModel } from '../models/spec-models.js';

describe('<Agent messages> with a system message', () => {
  it.each([
    ['streaming', true],
    ['batch', false],
  ])('reaches the model after the instructions (%s)', async (_, stream) => {
    const prompts: unknown[] = [];
    const model = specModel('v4', (prompt) => {
      prompts.push(prompt.map((message) => [message.role, message.content]));
      return { text: 'Brief.' };
    });
    const result = await run(
      <Agent
        model={model}
        instructions="You are terse."
        messages={[
          { role: 'system', content: 'Answer in one word.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi.' },
        ]}
      >
        <Step id="go" prompt="Say something" />
      </Agent>,
      { stream },
    ).result;
    expect(result.output).toBe('Brief.');
    expect(prompts).toEqual([
      [
        ['system', 'You are terse.'],
        ['system', 'Answer in one word.'],
        ['user', [{ type: 'text', text: 'Hello' }]],
        ['assistant', [{ type: 'text', text: 'Hi.' }]],
        ['user', [{ type: 'text', text: 'Say something' }]],
      ],
    ]);
  });
});
