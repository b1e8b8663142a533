/** The top bar's tabs under `june dev`: the workflows (their maps) or the runs. */
export function WorkbenchTabs({ workflows }: { workflows: boolean }) {
  return (
    <nav class="topbar-tabs">
      <a href="#/workflows" class={workflows ? 'tab tab-on' : 'tab'} data-testid="tab-workflows">
        Workflows
      </a>
      <a href="#/" class={workflows ? 'tab' : 'tab tab-on'} data-testid="tab-runs">
        Runs
      </a>
    </nav>
  );
}
