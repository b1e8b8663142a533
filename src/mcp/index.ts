export { defineMCPServer } from './define-mcp-server.js';
export type { MCPServerOptions, MCPHttpServerOptions, MCPStdioServerOptions } from './define-mcp-server.js';
