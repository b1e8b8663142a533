export { defineToolSource } from './define-tool-source.js';
export type {
  DefineToolSourceOptions,
  ToolSource,
  ToolSourceComponent,
  ToolSourceConnection,
} from './define-tool-source.js';
