import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import { Agent, Step, Tool, defineAgent, run, type Trace, type TraceNode } from 'june';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { TraceWriter } from '../../src/cli/trace-writer.js';
import { recordingModel } from './support.js';

const deploy = tool({
  inputSchema: z.object({ env: z.string() }),
  needsApproval: true,
  execute: async ({ env }) => `deployed to ${env}`,
});

/** The path of kinds, names and statuses from the root to the first node matching, following child runs in tool outputs. */
function pathTo(node: TraceNode, match: (node: TraceNode) => boolean): string[] | undefined {
  const here = `${node.kind} ${node.name}: ${node.status}`;
  if (match(node)) return [here];
  const child = (node.output as { trace?: Trace } | undefined)?.trace?.root;
  for (const next of [...node.children, ...(child ? [child] : [])]) {
    const rest = pathTo(next, match);
    if (rest) return [here, ...rest];
  }
  return undefined;
}

const waitingDeploy = (node: TraceNode) => node.kind === 'tool' && node.name === 'deploy';

/** main calls writer, writer calls helper (when `depth` is 2), and the innermost agent asks to deploy. */
function nestedWorkflow(depth: 1 | 2) {
  const model = recordingModel({
    main: [
      { toolCalls: [{ tool: depth === 2 ? 'writer' : 'helper', input: { task: 'ship' } }] },
      { text: 'Done.' },
    ],
    'writer:answer': [
      { toolCalls: [{ tool: 'helper', input: { task: 'ship' } }] },
      { text: 'Written.' },
    ],
    [depth === 2 ? 'writer:helper:answer' : 'helper:answer']: [
      { toolCalls: [{ tool: 'deploy', input: { env: 'prod' } }] },
      { text: 'Deployed.' },
    ],
  });
  const input = z.object({ task: z.string() });
  const Helper = defineAgent({
    name: 'helper',
    model,
    input,
    prompt: ({ task }) => task,
    capabilities: () => <Tool name="deploy" value={deploy} />,
  });
  const Writer = defineAgent({
    name: 'writer',
    model,
    input,
    prompt: ({ task }) => task,
    capabilities: () => <Helper />,
  });
  return (
    <Agent model={model}>
      {depth === 2 ? <Writer /> : <Helper />}
      <Step id="main" prompt="Ship it" />
    </Agent>
  );
}

describe('the live trace shows nested runs while they wait', () => {
  test.each([1, 2] as const)(
    'a defined agent %i level(s) down: handle.trace() and the trace file show the path to "tool deploy: waiting"',
    async (depth) => {
      const handle = run(nestedWorkflow(depth));
      const file = join(mkdtempSync(join(tmpdir(), 'june-live-')), 'run.json');
      const writer = new TraceWriter({
        paths: [file],
        snapshot: () => handle.trace(),
        minIntervalMs: 0,
      });
      for await (const event of handle.events) if (event.type === 'approval-request') break;

      const expected = [
        'run Agent: running',
        'agent agent: running',
        'step main: running',
        ...(depth === 2
          ? [
              'tool writer: running',
              'run writer: running',
              'agent writer: running',
              'step answer: running',
            ]
          : []),
        'tool helper: running',
        'run helper: running',
        'agent helper: running',
        'step answer: running',
        'tool deploy: waiting',
      ];
      const snapshot = handle.trace();
      expect(pathTo(snapshot.root, waitingDeploy)).toEqual(expected);
      // a snapshot is plain data: it does not change as the run goes on
      expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);

      await writer.close(handle.trace());
      const written = JSON.parse(readFileSync(file, 'utf8')) as Trace;
      expect(pathTo(written.root, waitingDeploy)).toEqual(expected);

      handle.approve(handle.pendingApprovals[0]!.id);
      const { trace } = await handle.result;
      expect(pathTo(trace.root, waitingDeploy)!.at(-1)).toBe('tool deploy: succeeded');
      expect(pathTo(trace.root, waitingDeploy)!.filter((line) => line.startsWith('tool'))).toEqual([
        ...(depth === 2 ? ['tool writer: succeeded'] : []),
        'tool helper: succeeded',
        'tool deploy: succeeded',
      ]);
    },
  );
});
