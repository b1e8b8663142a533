import { SystemError } from '../errors/june-error.js';

/** The parts of `@modelcontextprotocol/sdk` a served workflow needs, loaded together. */
export interface McpSdk {
  server: typeof import('@modelcontextprotocol/sdk/server/index.js');
  http: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
}

let loaded: Promise<McpSdk> | undefined;

/**
 * Loads the official MCP SDK once. Only serving workflows needs it (`june serve`,
 * `serveWorkflows`), so it is an optional peer dependency of June: install it beside June
 * to serve.
 *
 * @throws {SystemError} `serve-sdk-missing` naming the package to install when it cannot be loaded.
 */
export function loadMcpSdk(): Promise<McpSdk> {
  loaded ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ])
    .then(([server, http, types]) => ({ server, http, types }))
    .catch((error: unknown) => {
      loaded = undefined;
      const code = (error as { code?: unknown }).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
        throw new SystemError(
          'serve-sdk-missing',
          'june: serving workflows over MCP (june serve, june/serve) needs the MCP SDK, an optional peer dependency of june: run `npm install @modelcontextprotocol/sdk@^1.32` in your project.',
          { cause: error },
        );
      throw error;
    });
  return loaded;
}
