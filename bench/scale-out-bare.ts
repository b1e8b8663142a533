// The bare-DBOS contender of bench/scale-out.ts: the short run of bench/scale-out-flow.tsx (a
// model call that asks for a tool, the tool, a model call that answers) written directly on
// DBOS, as a worker process over the same PostgreSQL. Each of the 3 pieces of work is a
// `DBOS.runStep` (its result checkpointed), followed by one `DBOS.writeStream` of the step's
// event, which is what a follower in another process needs to see the run move; the stream is
// closed at the end. With `steps: 0` the same work runs with no step and no stream: the floor
// of the per-step overhead. With `stream: false`, the 3 steps alone (a plain `DBOS.runStep`
// each, no stream write): what a durable step costs on DBOS itself.
//   node --import tsx bench/scale-out-bare.ts <database-url> <executor-id> <concurrency>
// It registers one queue per polling interval in BARE_QUEUES and prints `bare worker ready`.
import { DBOS } from '@dbos-inc/dbos-sdk';

/** The workflow's name on the workers. */
export const BARE_WORKFLOW = 'bare-flow';

/** Queues of the bare workers: their names and their DBOS `minPollingIntervalMs`. */
export const BARE_QUEUES: ReadonlyArray<{ name: string; pollingMs: number }> = [
  { name: 'bare', pollingMs: 200 }, // the interval June's workers set before they polled every 50 ms
  { name: 'bare-default', pollingMs: 1000 }, // DBOS's default
  { name: 'bare-100', pollingMs: 100 },
  { name: 'bare-50', pollingMs: 50 },
];

/** The input of one bare run. */
export interface BareInput {
  n: number;
  /** 3 (two model calls and a tool, each a step) or 0 (the same work, no step). */
  steps: 3 | 0;
  /** With 3 steps: `false` writes no stream (the steps alone). @default true */
  stream?: boolean;
}

/** The scripted model's two answers and the tool, as plain functions (the work of the steps). */
const work = {
  ask: (n: number) => ({ toolCalls: [{ tool: 'note', input: { text: `hi ${n}` } }] }),
  note: (text: string) => `noted ${text}`,
  answer: () => ({ text: 'Noted.' }),
};

async function bareFlow(input: BareInput): Promise<string> {
  if (input.steps === 0) {
    const call = work.ask(input.n).toolCalls[0]!;
    const noted = work.note(call.input.text);
    return `${noted}: ${work.answer().text}`;
  }
  if (input.stream === false) {
    const asked = await DBOS.runStep(async () => work.ask(input.n), { name: 'model' });
    const call = asked.toolCalls[0]!;
    const noted = await DBOS.runStep(async () => work.note(call.input.text), { name: 'note' });
    const answered = await DBOS.runStep(async () => work.answer(), { name: 'model' });
    return `${noted}: ${answered.text}`;
  }
  const asked = await DBOS.runStep(async () => work.ask(input.n), { name: 'model' });
  await DBOS.writeStream('events', { type: 'model', toolCalls: asked.toolCalls });
  const call = asked.toolCalls[0]!;
  const noted = await DBOS.runStep(async () => work.note(call.input.text), { name: 'note' });
  await DBOS.writeStream('events', { type: 'tool', output: noted });
  const answered = await DBOS.runStep(async () => work.answer(), { name: 'model' });
  await DBOS.writeStream('events', { type: 'model', text: answered.text });
  await DBOS.closeStream('events');
  return `${noted}: ${answered.text}`;
}

async function main(): Promise<void> {
  const [database, executorID, concurrency] = process.argv.slice(2);
  if (!database || !executorID) throw new Error('usage: scale-out-bare.ts <database> <executor>');
  DBOS.setConfig({
    name: 'june-bench-bare',
    systemDatabaseUrl: database,
    executorID,
    applicationVersion: 'bench-bare',
    listenQueues: BARE_QUEUES.map((q) => q.name),
  });
  DBOS.registerWorkflow(bareFlow, { name: BARE_WORKFLOW });
  await DBOS.launch();
  for (const queue of BARE_QUEUES)
    await DBOS.registerQueue(queue.name, {
      workerConcurrency: Number(concurrency ?? 10),
      minPollingIntervalMs: queue.pollingMs,
      onConflict: 'always_update',
    });
  process.once('SIGTERM', () => void DBOS.shutdown().then(() => process.exit(0)));
  console.log('bare worker ready');
}

if (process.argv[1]?.endsWith('scale-out-bare.ts')) await main();
