import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// June Studio's UI: preact, built into dist/studio/ (served by src/studio/start-studio.ts).
// `vite --config studio/vite.config.ts` serves it for development, with /api going to a
// Studio started on port 4000 (`npx june studio`).
export default defineConfig({
  root: here('.'),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // React libraries (the virtualizer, @tanstack/react-virtual) run on preact's compat layer.
  resolve: {
    alias: {
      'react-dom/test-utils': 'preact/test-utils',
      'react-dom': 'preact/compat',
      'react/jsx-runtime': 'preact/jsx-runtime',
      react: 'preact/compat',
    },
  },
  build: {
    outDir: here('../dist/studio'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4000' } },
});
