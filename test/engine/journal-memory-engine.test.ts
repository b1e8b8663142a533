// The engine contract against June's journal engine over the memory store.
import { journalEngine, memoryJournalStore } from '../../src/journal/index.js';
import { engineContract } from './engine-contract.js';
import { inProcessRig } from './in-process-rig.js';

engineContract(
  'journalEngine over memoryJournalStore',
  inProcessRig(() => {
    const store = memoryJournalStore();
    return {
      first: journalEngine({ store }),
      resumed: journalEngine({ store, resume: true }),
    };
  }),
);
