import { useEffect, useState } from 'preact/hooks';

/** Where the page is: the run list, or one run (`#/runs/<runId>`). */
export type Route = { view: 'runs' } | { view: 'run'; runId: string };

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

function parseRoute(hash: string): Route {
  const match = /^#\/runs\/([^/]+)/.exec(hash);
  if (!match) return { view: 'runs' };
  try {
    return { view: 'run', runId: decodeURIComponent(match[1]!) };
  } catch {
    return { view: 'runs' };
  }
}
