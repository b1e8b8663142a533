import { Agent, Inherit, Step, inspect, run } from 'june';
import { jsx, jsxs } from 'june/jsx-runtime';
import { scriptedModel } from 'june/testing';
import { Bash } from 'june/tools';
import { describe, expect, test } from 'vitest';
import { juneFailure } from '../helpers/june-failure.js';

// Messages name the element the author wrote, where it stands, from the current directory
// (vitest compiles these files with the development runtime, as "jsx": "react-jsxdev" does).
const here = 'test/interpreter/messages.test.tsx';
const model = scriptedModel({ steps: {} });

describe('messages point at what the author wrote', () => {
  test('<Bash timeoutMs={0}> blames <Bash> and its prop, not bashTool()', async () => {
    const error = await juneFailure(
      inspect(
        <Agent model={model}>
          <Bash timeoutMs={0} />
        </Agent>,
      ),
    );
    expect(error.code).toBe('invalid-bash-option');
    expect(error.message).toMatch(
      new RegExp(
        `^june: <Bash> at ${here}:\\d+:\\d+: timeoutMs must be a whole number of ms from 1 to \\d+, got 0: change its timeoutMs prop$`,
      ),
    );
  });

  test('a prompt function that throws names its step; the error it threw is the cause', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'title')");
    const error = await juneFailure(
      run(
        <Agent model={model}>
          <Step
            id="summary"
            prompt={() => {
              throw bug;
            }}
          />
        </Agent>,
      ).result,
    );
    expect(error.code).toBe('step-prompt-failed');
    expect(error.message).toMatch(
      new RegExp(
        `^june: the prompt function of <Step id="summary"> at ${here}:\\d+:\\d+ threw: Cannot read properties of undefined \\(reading 'title'\\)$`,
      ),
    );
    expect(error.cause).toBe(bug);
  });

  test('an <Inherit> of a name the parent lacks names the agent it stands in and the parent', async () => {
    const error = await juneFailure(
      inspect(
        <Agent name="lead" model={model}>
          <Agent name="writer" model={model}>
            <Inherit capabilities={['writeFile']} />
          </Agent>
        </Agent>,
      ),
    );
    expect(error.code).toBe('inherit-unknown-name');
    expect(error.message).toMatch(
      new RegExp(
        `^june: <Inherit capabilities=\\{\\["writeFile"\\]\\}> at ${here}:\\d+:\\d+ in <Agent name="writer"> at ${here}:\\d+:\\d+ names "writeFile", but the enclosing <Agent name="lead"> at ${here}:\\d+:\\d+ has no tool of that name; it has no tools\\.`,
      ),
    );
  });

  test('duplicate step ids without source locations ("jsx": "react-jsx") name the agents they stand in', async () => {
    // jsx() is what "react-jsx" compiles to: elements carry no file and line
    const tree = jsxs(Agent, {
      name: 'triage',
      model,
      children: [
        jsx(Step, { id: 'answer', prompt: 'First' }),
        jsx(Agent, {
          name: 'helper',
          model,
          children: jsx(Step, { id: 'answer', prompt: 'Second' }),
        }),
      ],
    });
    const error = await juneFailure(inspect(tree));
    expect(error.code).toBe('step-id-duplicate');
    expect(error.message).toBe(
      'june: two steps have the id "answer": <Step id="answer"> in the agent "triage" and <Step id="answer"> in the agent "triage > helper". ' +
        'Step ids are unique within a run; rename one (compile with "jsx": "react-jsxdev" to see their files and lines).',
    );
  });

  test('duplicate step ids with source locations show both, from the current directory', async () => {
    const error = await juneFailure(
      inspect(
        <Agent model={model}>
          <Step id="answer" prompt="First" />
          <Step id="answer" prompt="Second" />
        </Agent>,
      ),
    );
    expect(error.message).toMatch(
      new RegExp(
        `^june: two steps have the id "answer": <Step id="answer"> at ${here}:\\d+:11 and <Step id="answer"> at ${here}:\\d+:11\\. Step ids are unique within a run; rename one\\.$`,
      ),
    );
  });
});
