export { bashTool } from './bash-tool.js';
export type { BashTool, BashToolInput, BashToolOptions } from './bash-tool.js';
export type { BashToolResult, BashToolTruncation } from './bash-tool-result.js';
export { BASH_TOOL_DEFAULT_INHERIT_ENV } from './bash-env.js';
export { Bash } from './bash.js';
export type { BashProps } from './bash.js';
export { omitFromModel } from './omit-from-model.js';
export type { ModelOutputOf, ToolModelOutput } from './omit-from-model.js';
