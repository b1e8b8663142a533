export { defineMCPServer } from './define-mcp-server.js';
export type {
  MCPServerOptions,
  MCPHttpServerOptions,
  MCPStdioServerOptions,
  MCPToolSelection,
} from './define-mcp-server.js';
