export { defineToolSource } from './define-tool-source.js';
export type { DefineToolSourceOptions, ToolSource, ToolSourceConnection } from './define-tool-source.js';

