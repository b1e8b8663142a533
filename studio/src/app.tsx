import { useMemo, useState } from 'preact/hooks';
import { isUnreadable } from '../../src/host/run-list.js';
import { NO_FILTER } from './run-filter.js';
import { RunView } from './run-view.js';
import { RunsList } from './runs-list.js';
import { ShowErrors } from './show-errors.js';
import { runHref, useHashRoute, workbenchHref, type Route } from './use-hash-route.js';
import { useLiveRuns, type LiveRuns } from './use-live-runs.js';
import { useWorkflows } from './use-workflows.js';
import { WorkbenchTabs } from './workbench-tabs.js';
import { WorkbenchView } from './workbench-view.js';
import { rerun } from './workbench-client.js';
import { WorkflowsView, type LastRun, type RerunTarget } from './workflows-view.js';

/**
 * June Studio: the run list, or one run's trace tree and inspector; under `june dev` also
 * the project's workflows with their capability maps (the page opens on them).
 */
export function App() {
  const route = useHashRoute();
  const live = useLiveRuns();
  const workflows = useWorkflows(live.workflows);
  const lastRuns = useMemo(() => lastRunOf(live), [live.runs]);
  const onWorkflows =
    route.view === 'workflows' || (workflows.available === true && location.hash === '');
  // kept here, so the list's filters stay as they were after a visit to a run
  const [filter, setFilter] = useState(NO_FILTER);
  return (
    <div class="app">
      <header class="topbar">
        <a class="brand" href="#/">
          <span class="brand-dot" aria-hidden="true" />
          June Studio
        </a>
        {workflows.available && (
          <WorkbenchTabs workflows={onWorkflows || route.view === 'workbench'} />
        )}
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
      {onWorkflows ? (
        <ShowErrors key="workflows" what="the workflows">
          <WorkflowsView
            live={workflows}
            selected={route.view === 'workflows' ? route.workflowId : undefined}
            lastRuns={lastRuns}
            onTryTool={(target) => (location.hash = workbenchHref(target.workflowId, target))}
            onRerun={rerunLast}
          />
        </ShowErrors>
      ) : route.view === 'workbench' ? (
        <WorkbenchRoute route={route} />
      ) : route.view === 'runs' ? (
        <ShowErrors key="runs" what="the runs">
          <RunsList live={live} filter={filter} onFilter={setFilter} />
        </ShowErrors>
      ) : (
        <ShowErrors key={route.runId} what="this run">
          <RunView
            key={route.runId}
            runId={route.runId}
            entry={live.runs?.get(route.runId)}
            forks={live.forks}
          />
        </ShowErrors>
      )}
    </div>
  );
}

/** Starts a workflow's last run again through the workbench's start-run route, then opens the new run. */
async function rerunLast(target: RerunTarget): Promise<void> {
  const { runId } = await rerun(target.workflowId, target.runId, target.props);
  location.hash = runHref(runId);
}

/**
 * The newest run of each workflow, by the trace's `workflow` (its file's path, as `june dev`
 * names it), with its state as the runs list shows it.
 */
function lastRunOf(live: LiveRuns): Map<string, LastRun> {
  const newest = new Map<string, LastRun & { at: number }>();
  for (const run of live.runs?.values() ?? []) {
    if (isUnreadable(run) || run.workflow === undefined) continue;
    const at = Date.parse(run.startedAt) || 0;
    if ((newest.get(run.workflow)?.at ?? -1) < at)
      newest.set(run.workflow, {
        runId: run.runId,
        status: run.status,
        pendingApprovals: run.pendingApprovals ?? 0,
        at,
      });
  }
  return new Map(
    [...newest].map(([workflow, { runId, status, pendingApprovals }]) => [
      workflow,
      { runId, status, pendingApprovals },
    ]),
  );
}

/** `#/workbench/<id>[/<agent>/<tool>]`: a workflow's workbench, its tool dialog on that tool. */
function WorkbenchRoute({ route }: { route: Extract<Route, { view: 'workbench' }> }) {
  const tool =
    route.agent !== undefined && route.tool !== undefined
      ? { tool: { agent: route.agent, tool: route.tool } }
      : {};
  return (
    <ShowErrors key={route.workflowId} what="this workflow">
      <WorkbenchView
        key={`${route.workflowId}/${route.agent ?? ''}/${route.tool ?? ''}`}
        workflowId={route.workflowId}
        {...tool}
      />
    </ShowErrors>
  );
}
