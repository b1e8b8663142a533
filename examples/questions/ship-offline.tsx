/**
 * Runs examples/questions/ship.tsx offline: the script answers the model and, through its
 * `approvals` source, both questions. Prints what was asked and answered.
 *
 *   npx tsx examples/questions/ship-offline.tsx
 */
import { fileURLToPath } from 'node:url';
import { run } from 'june';
import { questionsIn } from 'june/evals';
import { scriptedModel } from 'june/testing';
import Ship from './ship.js';

const model = scriptedModel(fileURLToPath(new URL('./ship.script.json', import.meta.url)));
const result = await run(<Ship />, { model, approvalSources: [model.approvals] }).result;
for (const question of questionsIn(result.trace))
  console.log(`${question.prompt} -> ${JSON.stringify(question.answer)} (${question.answeredBy})`);
console.log(result.output);
