// evalite runs the evals with vitest from this folder: this file keeps vitest from taking the
// repository's own test config, and compiles the workflow's JSX with June's runtime (as the
// tsconfig's "jsx": "react-jsx", "jsxImportSource": "june" says to TypeScript).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'june' } },
});
