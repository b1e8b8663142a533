// The engine contract against June's journal engine over the file store.
import { join } from 'node:path';
import { fileJournalStore, journalEngine } from '../../src/journal/index.js';
import { engineContract } from './engine-contract.js';
import { inProcessRig } from './in-process-rig.js';

engineContract(
  'journalEngine over fileJournalStore',
  inProcessRig((dir) => {
    const store = fileJournalStore({ dir: join(dir, 'journal') });
    return {
      first: journalEngine({ store }),
      resumed: journalEngine({ store, resume: true }),
    };
  }),
);
