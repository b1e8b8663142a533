// The run host contract against the runs folder, over the real file system: each run is a
// `june run --approve studio` of the built CLI in a temporary project (`npm run build`
// first), writing its trace and journal to the project's .june/runs.
import { runHostContract } from './host-contract.js';
import { folderHost } from './hosts-under-test.js';

runHostContract('runs folder', folderHost);
