import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The example's page (React and useChat), built into examples/web/dist/ for server.ts.
export default defineConfig({
  root: here('.'),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      // swr (under useChat) marks its modules "use client", which means nothing in a page
      // bundle: its warning is noise here
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
