// The run host contract against the host in memory: runs of test/host/fixtures/desk.tsx in
// this process, with a memory journal.
import { runHostContract } from './host-contract.js';
import { memoryHost } from './hosts-under-test.js';

runHostContract('memory', memoryHost);
