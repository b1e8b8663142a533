// @ts-check
// ESLint for June: the recommended JavaScript and TypeScript rules, imports that point one
// way between source folders (lint/layers.js), and no circle of imports between files.
// Formatting is prettier's job, not ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layeredImports } from './lint/layered-imports-rule.js';
import { layers } from './lint/layers.js';
import { noImportCycle } from './lint/no-import-cycle-rule.js';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'coverage/',
      '.june/',
      'test/fixtures/',
      'examples/**/node_modules/',
      'examples/web/dist/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding kept on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // June's public types take `any` where the AI SDK's do (`Tool<any, any>`, `StopCondition<any>`,
      // component props), so that any user type is accepted; `unknown` would reject them.
      '@typescript-eslint/no-explicit-any': 'off',
      // `catch {}`: an attempt whose failure only means "try the next way".
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A `let` assigned once after a closure that reads it was made (the closure runs later).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.property.name="only"]', message: 'No .only in tests.' },
      ],
    },
  },
  {
    // Type tests: a binding that must not type-check is declared and never used.
    files: ['**/*.test-d.ts', '**/*.test-d.tsx'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
  {
    files: ['studio/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**', 'jsx-runtime/**', 'studio/src/**'],
    plugins: {
      june: { rules: { 'layered-imports': layeredImports, 'no-import-cycle': noImportCycle } },
    },
    rules: {
      'june/layered-imports': ['error', layers],
      // No file imports one that imports it back, types included (STYLE.md 16).
      'june/no-import-cycle': 'error',
      // Functions stay short enough to read at once (STYLE.md); a warning finds the long ones.
      'max-lines-per-function': ['warn', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
);
