import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { june, tempProject } from './cli-harness.js';

// Each wrong JSX setup a new project can have ends with one `june:` line that names the
// setting to change. Each case is a folder of the same project with its own tsconfig.json.
let project: ReturnType<typeof tempProject>;
const workflow = `import { Agent, Step } from 'june';
import { scriptedModel } from 'june/testing';

const model = scriptedModel({ steps: { hello: [{ text: 'Hello!' }] } });

export default function Hello() {
  return (
    <Agent model={model}>
      <Step id="hello" prompt="Say hello" />
    </Agent>
  );
}
`;
const settings =
  'set "jsx": "react-jsx" and "jsxImportSource": "june" in the compilerOptions of tsconfig.json (and make its "include" cover the file); ' +
  "under vitest, set oxc: { jsx: { runtime: 'automatic', importSource: 'june' } } in vitest.config.ts.";

function setup(name: string, compilerOptions: Record<string, unknown>): string {
  project.write(
    `${name}/tsconfig.json`,
    JSON.stringify({ compilerOptions, include: ['**/*.tsx'] }),
  );
  project.write(`${name}/hello.tsx`, workflow);
  return project.folder(name);
}

beforeAll(() => {
  project = tempProject();
  // A stand-in for React 19's automatic runtime, installed beside June in a second project folder.
  const element = `(type, props, key) => ({ $$typeof: Symbol.for('react.transitional.element'), type, props, key: key ?? null })`;
  project.write(
    'with-react/node_modules/react/package.json',
    JSON.stringify({
      name: 'react',
      type: 'module',
      exports: { './jsx-runtime': './jsx-runtime.js', './jsx-dev-runtime': './jsx-runtime.js' },
    }),
  );
  project.write(
    'with-react/node_modules/react/jsx-runtime.js',
    `const element = ${element};\nexport const jsx = element, jsxs = element, jsxDEV = element;\nexport const Fragment = Symbol.for('react.fragment');\n`,
  );
});
afterAll(() => project.remove());

describe('june run with a wrong JSX setup', () => {
  it('"jsxImportSource": "june/jsx-runtime"', async () => {
    const cwd = setup('subpath', { jsx: 'react-jsx', jsxImportSource: 'june/jsx-runtime' });
    const result = await june(['run', 'hello.tsx'], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'june: cannot load hello.tsx, compiled with tsconfig.json: "jsxImportSource" is "june/jsx-runtime", but it takes the package name: set "jsxImportSource": "june" (the compiler adds /jsx-runtime itself).\n',
    );
  });

  it('"jsx": "react-jsx" without jsxImportSource, React not installed', async () => {
    const cwd = setup('no-source', { jsx: 'react-jsx' });
    const result = await june(['run', 'hello.tsx'], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `june: cannot load hello.tsx, compiled with tsconfig.json: its JSX was compiled for React (Cannot find package 'react'): ${settings}\n`,
    );
  });

  it('"jsx": "react-jsx" without jsxImportSource, React installed', async () => {
    const cwd = setup('with-react', { jsx: 'react-jsx' });
    const result = await june(['run', 'hello.tsx'], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `june: the workflow holds a React element (<Agent>), not a June element: its JSX was compiled with React's runtime. To compile it with June's, ${settings}\n`,
    );
  });

  it('"jsx": "react" (React.createElement)', async () => {
    const cwd = setup('classic', { jsx: 'react' });
    const result = await june(['run', 'hello.tsx'], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `june: the component <Hello> failed to render: its JSX was compiled for React (React is not defined): ${settings}\n`,
    );
  });
});
