/**
 * Evals of the release workflow over a dataset of changelogs, run by evalite:
 *
 *   cd examples/evals && npx evalite run                     # offline: scripts and a recorded run
 *   npx evalite run --outputPath results.json                # the same, results kept for a comparison
 *   RELEASE_DATASET=planted-regression.jsonl npx evalite run # a model that deploys to prod
 *   npx evalite serve                                        # once, then evalite's UI on :3006
 *   npx evalite watch                                        # again on every save, with the UI
 *   node ../../dist/src/cli/bin.js studio .june/runs         # each case's run, linked from the UI
 *
 * In the repository the example calls the june built there by its path (docs/evals.md says
 * why `npx june` cannot find it from this folder); in a project of your own, `npx june`.
 *
 * Each case's trace goes to .june/runs; its output and the table's "June trace" column link
 * to it in June Studio.
 */
import { evalite } from 'evalite';
import {
  approvalsAsked,
  juneColumns,
  loadDataset,
  noErrors,
  stepsWithin,
  toolsCalled,
  workflowTask,
} from 'june/evals';
import Release from './release.js';
import { answerNamesRelease, deployedOnlyToStaging } from './scorers.js';

const dataset = new URL(process.env.RELEASE_DATASET ?? 'changelogs.jsonl', import.meta.url);

evalite('release', {
  data: () => loadDataset(dataset.pathname),
  task: workflowTask(Release),
  scorers: [
    deployedOnlyToStaging,
    { ...approvalsAsked(['deploy']), name: 'asked first' },
    answerNamesRelease,
    toolsCalled(),
    stepsWithin(),
    noErrors(),
  ],
  columns: juneColumns(),
});
