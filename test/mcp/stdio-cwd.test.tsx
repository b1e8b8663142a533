// An MCP server whose cwd does not exist: spawn reports it as `spawn /usr/bin/node ENOENT`
// (as if the command were missing); June says which option is wrong, without the path.
import { Agent, defineMCPServer, run, Step } from 'june';
import { expect, test } from 'vitest';
import { streamModel } from '../helpers/mock-stream-model.js';
import { rejectionOf } from '../resources/support.js';
import { everythingCommand } from './support.js';

test('a cwd that does not exist fails with mcp-connect-failed naming cwd, not the command', async () => {
  const Server = defineMCPServer({
    name: 'Everything',
    ...everythingCommand,
    cwd: '/no/such/folder-for-june',
  });
  const error = await rejectionOf(
    run(
      <Agent model={streamModel([])}>
        <Server />
        <Step id="s" prompt="p" />
      </Agent>,
    ).result,
  );
  expect(error.code).toBe('mcp-connect-failed');
  expect(error.message).toBe(
    `june: the MCP server <Everything> (command ${JSON.stringify(process.execPath)}) could not be started: its cwd is not an existing directory. Create that directory, or change cwd (relative paths are read from the current directory).`,
  );
});
