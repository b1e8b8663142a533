import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scriptFilesNear } from '../../src/studio/script-files-near.js';
import { proposedScript } from '../../studio/src/proposed-script.js';
import { startingProps } from '../../studio/src/starting-props.js';

// What the workbench proposes before anything is typed: script files that exist next to the
// workflow, the one named after it first; props that fit its schema, a chat workflow's
// conversation filled in.

describe('the workbench proposals', () => {
  const root = mkdtempSync(join(tmpdir(), 'june-proposals-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists the script files in the workflow folder, paths from the root', async () => {
    mkdirSync(join(root, 'workflows', 'hello.chat.json', 'x'), { recursive: true }); // a folder
    writeFileSync(join(root, 'workflows', 'support.script.json'), '{}');
    writeFileSync(join(root, 'workflows', 'a.chat.json'), '{}');
    writeFileSync(join(root, 'workflows', 'notes.json'), '{}');
    writeFileSync(join(root, 'top.script.json'), '{}');
    expect(await scriptFilesNear(root, 'workflows/support.tsx')).toEqual([
      'workflows/a.chat.json',
      'workflows/support.script.json',
    ]);
    expect(await scriptFilesNear(root, 'top.tsx')).toEqual(['top.script.json']);
    expect(await scriptFilesNear(root, 'gone/x.tsx')).toEqual([]);
  });

  it("proposes the workflow's own script first, then one of the kind, then any, else none", () => {
    const id = 'workflows/support.tsx';
    const scripts = ['workflows/a.chat.json', 'workflows/support.script.json'];
    expect(proposedScript({ id, scripts }, 'run')).toBe('workflows/support.script.json');
    expect(proposedScript({ id, scripts }, 'chat')).toBe('workflows/support.script.json');
    expect(proposedScript({ id, scripts: ['workflows/a.chat.json'] }, 'chat')).toBe(
      'workflows/a.chat.json',
    );
    expect(proposedScript({ id, scripts: ['workflows/b.chat.json'] }, 'run')).toBe(
      'workflows/b.chat.json',
    );
    expect(proposedScript({ id, scripts: [] }, 'chat')).toBeUndefined();
    expect(proposedScript({ id }, 'run')).toBeUndefined();
  });

  it("starts from props that fit: required samples, the map's props, a conversation for chat", () => {
    const chatAny = { type: 'object', properties: { chat: {} }, required: ['chat'] };
    expect(startingProps({ props: {}, propsSchema: chatAny })).toEqual({
      chat: { messages: [], history: [] },
    });
    const chatTyped = {
      type: 'object',
      properties: {
        chat: {
          type: 'object',
          properties: { messages: { type: 'array', items: { type: 'string' } } },
          required: ['messages'],
        },
      },
      required: ['chat'],
    };
    expect(startingProps({ props: {}, propsSchema: chatTyped })).toEqual({
      chat: { messages: [] },
    });
    const env = {
      type: 'object',
      properties: { env: { type: 'string' }, speed: { enum: ['slow', 'fast'] } },
      required: ['env', 'speed'],
    };
    expect(startingProps({ props: { env: 'qa' }, propsSchema: env })).toEqual({
      env: 'qa',
      speed: 'slow',
    });
    expect(startingProps({ props: { x: 1 } })).toEqual({ x: 1 });
    const optional = { type: 'object', properties: { region: { type: 'string', default: 'eu' } } };
    expect(startingProps({ props: {}, propsSchema: optional })).toEqual({ region: 'eu' });
  });
});
