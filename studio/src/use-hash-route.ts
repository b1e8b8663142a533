import { useEffect, useState } from 'preact/hooks';

/** Where the page is: the run list, or one run (`#/runs/<runId>`). */
export type Route =
  { view: 'runs' } | { view: 'run'; runId: string } | { view: 'workbench'; workflowId: string };

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

/** The link to a workflow's workbench: start a run, try a tool, chat (`#/workbench/<id>`). */
export function workbenchHref(workflowId: string): string {
  return `#/workbench/${encodeURIComponent(workflowId)}`;
}

function parseRoute(hash: string): Route {
  const workbench = /^#\/workbench\/([^/]+)/.exec(hash);
  if (workbench) {
    try {
      return { view: 'workbench', workflowId: decodeURIComponent(workbench[1]!) };
    } catch {
      return { view: 'runs' };
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
