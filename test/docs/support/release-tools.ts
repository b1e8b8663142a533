// The tools the docs' snippets import as `./release-tools.js`: examples/release.tsx's two.
import { readFile as readText } from 'node:fs/promises';
import { join } from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';

export const tools = {
  readFile: tool({
    description: 'Read a text file of the release',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => readText(join('examples', path), 'utf8'), // from the project folder
  }),
  deploy: tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
    needsApproval: true,
    execute: async ({ env }) => `Deployed to ${env}`,
  }),
};
