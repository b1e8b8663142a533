// One process of the crash fuzz: starts the run "fuzz" (or resumes it when it has a journal)
// in <dir>, answers approvals at random (seeded), prints the output as JSON when it finishes.
// Usage: node fuzz-worker.mjs <dir> <attempt> <seed>
import { join } from 'node:path';
import { run, fileJournalStore } from 'june';
import { fuzzModel, fuzzTools, fuzzWorkflow } from './fuzz-workflow.mjs';

const [dir, attemptText, seedText] = process.argv.slice(2);
const attempt = Number(attemptText);
let state = (Number(seedText) * 2654435761 + attempt * 40503) >>> 0 || 1;
const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;

const journal = fileJournalStore({ dir: join(dir, 'runs') });
const resume = (await journal.read('fuzz')).length > 0;
const tools = fuzzTools(join(dir, 'effects.log'), attempt);
const model = fuzzModel(join(dir, 'models.log'), attempt);
process.stdout.write('ready\n');
const handle = run(fuzzWorkflow(model, tools), {
  journal,
  ...(resume ? { resume: 'fuzz' } : { runId: 'fuzz' }),
  onApproval: async () => {
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 5)));
    return random() < 0.5 ? true : { approved: false, reason: 'no' };
  },
});
const { output } = await handle.result;
process.stdout.write(`${JSON.stringify({ output })}\n`);
