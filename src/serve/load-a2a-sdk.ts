import { SystemError } from '../errors/june-error.js';

/** The parts of `@a2a-js/sdk` serving over A2A needs, loaded together. */
export interface A2aSdk {
  core: typeof import('@a2a-js/sdk');
  server: typeof import('@a2a-js/sdk/server');
}

let loaded: Promise<A2aSdk> | undefined;

/**
 * Loads the A2A SDK once. Only serving workflows over A2A needs it (`june serve --a2a`,
 * `serveWorkflows({ a2a: true })`), so it is an optional peer dependency of June.
 *
 * @throws {SystemError} `serve-a2a-sdk-missing` naming the package to install when it cannot be loaded.
 */
export function loadA2aSdk(): Promise<A2aSdk> {
  loaded ??= Promise.all([import('@a2a-js/sdk'), import('@a2a-js/sdk/server')])
    .then(([core, server]) => ({ core, server }))
    .catch((error: unknown) => {
      loaded = undefined;
      const code = (error as { code?: unknown }).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
        throw new SystemError(
          'serve-a2a-sdk-missing',
          'june: serving workflows over A2A (june serve --a2a, serveWorkflows({ a2a: true })) needs the A2A SDK, an optional peer dependency of june: run `npm install @a2a-js/sdk@^1.3` in your project.',
          { cause: error },
        );
      throw error;
    });
  return loaded;
}
