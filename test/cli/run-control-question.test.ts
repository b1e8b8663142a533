// june run with nobody to ask (no terminal, --json): a question is refused by its name and
// prompt, and the sentence says how a question can be answered from the command line instead.
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/cli-io.js';
import type { ProgressPrinter } from '../../src/cli/progress-printer.js';
import { RunControl } from '../../src/cli/run-control.js';
import type { TerminalStyle } from '../../src/cli/terminal-style.js';
import { waitingHost } from './waiting-host.js';

function control(json: boolean) {
  // the request still waits (no script answered it)
  const { host, cancelled: aborted } = waitingHost();
  const run = new RunControl({
    session: { host, runId: 'r1' },
    printer: {} as ProgressPrinter,
    style: {} as TerminalStyle,
    io: {} as CliIO,
    approve: 'ask',
    json,
    promptOutput: undefined,
  });
  return { run, aborted };
}

const question = {
  id: 'a1',
  tool: 'ask_env',
  input: { question: 'Where?' },
  step: 'release',
  toolCallId: 'c1',
  kind: 'question' as const,
  question: { prompt: 'Where?', answerSchema: { type: 'string', enum: ['staging', 'prod'] } },
};

describe('a question june run cannot ask', () => {
  it('is refused by its name and prompt; --approve all is not offered as the way out', async () => {
    const { run, aborted } = control(true);
    run.request(question);
    await run.settled();
    expect(run.refusal).toBe(
      'the question "ask_env" in step "release" ("Where?") needs a person\'s answer, but --json does not prompt; give its answer in the --script (a tool call\'s "answer": { "approved": false, "output": <value> }), or pass --approve wait and answer it from another shell with june approve <runId> <requestId> --answer <json> (june runs lists it), or pass --approve none to deny it (--approve all approves tool calls, not questions)',
    );
    expect(aborted).toEqual([run.refusal]);
  });

  it('an approval request is refused as before', async () => {
    const { run } = control(false);
    run.request({ ...question, kind: undefined, question: undefined, tool: 'deploy' });
    await run.settled();
    expect(run.refusal).toMatch(
      /^the tool "deploy" in step "release" needs approval, but there is no terminal to ask at; pass --approve all/,
    );
  });
});
