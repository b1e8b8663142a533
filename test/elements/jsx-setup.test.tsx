import { Agent, JuneError, Step, inspect, run, type JuneNode } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, test } from 'vitest';

// What React's automatic runtime (react/jsx-runtime, React 19) makes of <type {...props} />:
// the shape a workflow gets when its JSX is compiled without "jsxImportSource": "june".
const reactElement = (type: unknown, props: Record<string, unknown> = {}) => ({ $$typeof: Symbol.for('react.transitional.element'), type, props, key: null });

const settings =
  'set "jsx": "react-jsx" and "jsxImportSource": "june" in the compilerOptions of tsconfig.json (and make its "include" cover the file); ' +
  "under vitest, set oxc: { jsx: { runtime: 'automatic', importSource: 'june' } } in vitest.config.ts.";

const model = scriptedModel({ steps: { hello: [{ text: 'never' }] } });

async function failure(promise: Promise<unknown>): Promise<JuneError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (caught: unknown) => caught,
  );
  expect(JuneError.isInstance(error)).toBe(true);
  return error as JuneError;
}

describe('a workflow compiled for React says which settings to change', () => {
  test('a component that returns React elements (not "[object Object]" text)', async () => {
    const Workflow = () => reactElement(Agent, { model, children: reactElement(Step, { id: 'hello', prompt: 'Hi' }) }) as unknown as JuneNode;
    const error = await failure(run(<Workflow />).result);
    expect(error.code).toBe('jsx-runtime-react');
    expect(error.message).toBe(`june: the workflow holds a React element (<Agent>), not a June element: its JSX was compiled with React's runtime. To compile it with June's, ${settings}`);
    expect(model.calls).toHaveLength(0);
  });

  test('React elements among an agent\'s children, and React 18\'s marker', async () => {
    const old = { ...reactElement(Step, { id: 'hello', prompt: 'Hi' }), $$typeof: Symbol.for('react.element') } as unknown as JuneNode;
    const error = await failure(inspect(<Agent model={model}>{old}</Agent>));
    expect(error.code).toBe('jsx-runtime-react');
    expect(error.message).toContain('holds a React element (<Step>)');
  });

  test('a React element given to run() or inspect() as the root', async () => {
    const root = reactElement(function Release() {}) as never;
    expect(() => run(root)).toThrow(/^june: the workflow holds a React element \(<Release>\)/);
    expect((await failure(inspect(root))).code).toBe('jsx-runtime-react');
  });

  test("a component compiled for React's classic runtime (React is not defined)", async () => {
    function Classic(): JuneNode {
      // what `return <Agent ...>` compiled to React.createElement(Agent, ...) throws with no React in scope
      throw new ReferenceError('React is not defined');
    }
    const error = await failure(run(<Classic />).result);
    expect(error.code).toBe('jsx-runtime-react');
    // the location is the element's, from the current directory (vitest compiles with jsxDEV)
    expect(error.message).toBe(`june: the component <Classic> at test/elements/jsx-setup.test.tsx:51:37 failed to render: its JSX was compiled for React (React is not defined): ${settings}`);
  });
});
