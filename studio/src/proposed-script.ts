import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';

/**
 * The script file the workbench proposes for a workflow: one that exists in its folder
 * (`WorkflowEntry.scripts`), preferring the one named after the workflow with the ending
 * `for` wants (`release.script.json` to start a run, `support.chat.json` to chat), then the
 * workflow's other one, then the folder's first of that kind, then any; undefined when the
 * folder has none (the page then proposes the configured provider and says so).
 *
 * @example
 * ```ts
 * proposedScript({ id: 'workflows/support.tsx', scripts: ['workflows/hello.chat.json'] }, 'chat');
 * // 'workflows/hello.chat.json'
 * ```
 */
export function proposedScript(
  workflow: Pick<WorkflowEntry, 'id' | 'scripts'>,
  use: 'run' | 'chat',
): string | undefined {
  const scripts = workflow.scripts ?? [];
  const base = workflow.id.replace(/\.[cm]?[jt]sx?$/, '');
  const [first, second] =
    use === 'chat' ? ['.chat.json', '.script.json'] : ['.script.json', '.chat.json'];
  return (
    scripts.find((path) => path === base + first) ??
    scripts.find((path) => path === base + second) ??
    scripts.find((path) => path.endsWith(first)) ??
    scripts[0]
  );
}

/** What the page says when no script file is next to a workflow. */
export function noScriptHint(workflow: Pick<WorkflowEntry, 'id'>, use: 'run' | 'chat'): string {
  const base = workflow.id.replace(/\.[cm]?[jt]sx?$/, '');
  return `No script file next to ${workflow.id}: the configured provider answers (its key must be set), or write ${base}${use === 'chat' ? '.chat.json' : '.script.json'} to answer offline.`;
}
