import { useEffect, useState } from 'preact/hooks';

/**
 * Where the page is: the run list, one run (`#/runs/<runId>`), or `june dev`'s workflows
 * (`#/workflows`, one of them: `#/workflows/<id>`).
 */
export type Route =
  | { view: 'runs' }
  | { view: 'run'; runId: string }
  | { view: 'workflows'; workflowId?: string }
  | { view: 'workbench'; workflowId: string; agent?: string; tool?: string };

/** The route in `location.hash`, following changes (back and forward included). */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The link to a run. */
export function runHref(runId: string): string {
  return `#/runs/${encodeURIComponent(runId)}`;
}

/** The link to a workflow of `june dev`. */
export function workflowHref(id: string): string {
  return `#/workflows/${encodeURIComponent(id)}`;
}

/**
 * The link to a workflow's workbench (`#/workbench/<id>`): start a run, try a tool, chat;
 * with `agent` and `tool`, the tool dialog opens on that tool (`#/workbench/<id>/<agent>/<tool>`).
 */
export function workbenchHref(workflowId: string, tool?: { agent: string; tool: string }): string {
  const target = tool ? `/${encodeURIComponent(tool.agent)}/${encodeURIComponent(tool.tool)}` : '';
  return `#/workbench/${encodeURIComponent(workflowId)}${target}`;
}

function parseRoute(hash: string): Route {
  const workbench = /^#\/workbench\/([^/]+)(?:\/([^/]+)\/([^/]+))?/.exec(hash);
  if (workbench) {
    try {
      const [, id, agent, tool] = workbench.map((part) =>
        part === undefined ? undefined : decodeURIComponent(part),
      );
      return {
        view: 'workbench',
        workflowId: id!,
        ...(agent !== undefined && tool !== undefined ? { agent, tool } : {}),
      };
    } catch {
      return { view: 'runs' };
    }
  }
  const workflow = /^#\/workflows(?:\/([^/]+))?/.exec(hash);
  if (workflow) {
    try {
      return workflow[1]
        ? { view: 'workflows', workflowId: decodeURIComponent(workflow[1]) }
        : { view: 'workflows' };
    } catch {
      return { view: 'workflows' };
    }
  }
  const match = /^#\/runs\/([^/]+)/.exec(hash);
  if (!match) return { view: 'runs' };
  try {
    return { view: 'run', runId: decodeURIComponent(match[1]!) };
  } catch {
    return { view: 'runs' };
  }
}
