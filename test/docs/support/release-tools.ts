// The tools the docs' snippets import as `./release-tools.js`: examples/release.tsx's two.
import { readFile as readText } from 'node:fs/promises';
import { tool } from 'ai';
import { z } from 'zod';

export const tools = {
  readFile: tool({
    description: 'Read a text file of the release',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => readText(new URL(`./examples/${path}`, import.meta.url), 'utf8'),
  }),
  deploy: tool({
    description: 'Deploy to an environment',
    inputSchema: z.object({ env: z.enum(['staging', 'prod']) }),
    needsApproval: true,
    execute: async ({ env }) => `Deployed to ${env}`,
  }),
};
