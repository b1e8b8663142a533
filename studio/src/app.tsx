import { useState } from 'preact/hooks';
import { NO_FILTER } from './run-filter.js';
import { RunView } from './run-view.js';
import { RunsList } from './runs-list.js';
import { ShowErrors } from './show-errors.js';
import { useHashRoute } from './use-hash-route.js';
import { useLiveRuns } from './use-live-runs.js';
import { WorkbenchView } from './workbench-view.js';

/** June Studio: the run list, or one run's trace tree and inspector. */
export function App() {
  const route = useHashRoute();
  const live = useLiveRuns();
  // kept here, so the list's filters stay as they were after a visit to a run
  const [filter, setFilter] = useState(NO_FILTER);
  return (
    <div class="app">
      <header class="topbar">
        <a class="brand" href="#/">
          <span class="brand-dot" aria-hidden="true" />
          June Studio
        </a>
        {live.dir && (
          <span class="topbar-dir" title="The directory Studio reads">
            {live.dir}
          </span>
        )}
        <span
          class={`live ${live.live ? 'live-on' : 'live-off'}`}
          data-testid="live"
          title={live.live ? 'Following the runs directory' : 'Reconnecting...'}
        >
          {live.live ? 'live' : 'reconnecting'}
        </span>
      </header>
      {route.view === 'workbench' ? (
        <ShowErrors key={route.workflowId} what="this workflow">
          <WorkbenchView key={route.workflowId} workflowId={route.workflowId} />
        </ShowErrors>
      ) : route.view === 'runs' ? (
        <ShowErrors key="runs" what="the runs">
          <RunsList live={live} filter={filter} onFilter={setFilter} />
        </ShowErrors>
      ) : (
        <ShowErrors key={route.runId} what="this run">
          <RunView key={route.runId} runId={route.runId} entry={live.runs?.get(route.runId)} />
        </ShowErrors>
      )}
    </div>
  );
}
