// The commonest errors carry their facts as data (`error.details`, read typed with
// JuneError.detailsOf), besides saying them in the message.
import { Agent, defineCapabilities, JuneError, Step, Tool } from 'june';
import { describe, expect, it } from 'vitest';
import { jsonToolOutput } from '../../src/interpreter/json-tool-output.js';
import {
  journalCallChanged,
  journalCallMissing,
  journalMismatch,
} from '../../src/engine/journal-mismatch.js';
import { alpha, beta, expectTreeError, model } from '../capabilities/support.js';

const Files = defineCapabilities(() => <Tool name="readFile" value={alpha} />, { name: 'Files' });

describe('error details', () => {
  it('capability-collision: the agent, the name and both declarations, first one first', async () => {
    const error = await expectTreeError(
      <Agent name="coder" model={model}>
        <Files />
        <Tool name="readFile" value={beta} />
        <Step id="s" prompt="go" />
      </Agent>,
      'capability-collision',
    );
    const details = JuneError.detailsOf(error, 'capability-collision');
    expect(details).toMatchObject({
      agent: expect.stringMatching(/^<Agent name="coder">/),
      name: 'readFile',
      declarations: [
        { source: '<Tool name="readFile"> in <Files>' },
        { source: '<Tool name="readFile">' },
      ],
    });
    // the message says the same as the data
    for (const declaration of details!.declarations)
      expect(error.message).toContain(declaration.source);
  });

  it('capability-collision: a renamed tool keeps its original name', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Tool name="search" value={alpha} />
        <Files />
        <Tool name="search" value={beta} />
        <Step id="s" prompt="go" />
      </Agent>,
      'capability-collision',
    );
    expect(JuneError.detailsOf(error, 'capability-collision')?.name).toBe('search');
  });

  it('step-id-duplicate: the id and both steps', async () => {
    function Later() {
      return <Step id="summary" prompt="again" />;
    }
    const error = await expectTreeError(
      <Agent model={model}>
        <Step id="summary" prompt="first" />
        <Later />
      </Agent>,
      'step-id-duplicate',
    );
    const details = JuneError.detailsOf(error, 'step-id-duplicate');
    expect(details?.id).toBe('summary');
    expect(details?.steps).toHaveLength(2);
    for (const step of details!.steps) {
      expect(step).toMatch(/<Step id="summary">/);
      expect(error.message).toContain(step);
    }
  });

  it('tool-output-invalid: the tool and what has no JSON form', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let caught: unknown;
    try {
      jsonToolOutput(cyclic, 'stat');
    } catch (error) {
      caught = error;
    }
    expect(JuneError.detailsOf(caught, 'tool-output-invalid')).toEqual({
      tool: 'stat',
      problem: 'it refers to itself at output.self (a cycle)',
    });
  });

  it('journal-mismatch: the journal, the call and how it differs', () => {
    const journal = 'the recording release.jsonl';
    const changed = journalMismatch('replay', journal, { step: 'plan' }, 0, { a: 1 }, { a: 2 });
    expect(JuneError.detailsOf(changed, 'journal-mismatch')).toEqual({
      journal,
      call: 'model call 1 of step "plan"',
      difference: 'request-changed',
    });
    expect(changed.comparison).toMatchObject({ recorded: { a: 1 }, current: { a: 2 } });
    expect(
      JuneError.detailsOf(journalCallMissing(journal, { step: 'plan' }, 2), 'journal-mismatch'),
    ).toEqual({ journal, call: 'model call 3 of step "plan"', difference: 'call-missing' });
    const tool = journalCallChanged(
      journal,
      { step: 'plan' },
      { call: 'plan#0.0', tool: 'refund' },
      'its input changed',
    );
    expect(JuneError.detailsOf(tool, 'journal-mismatch')).toEqual({
      journal,
      call: 'the tool call plan#0.0 of step "plan"',
      difference: 'call-changed',
    });
  });

  it('gives nothing for another code or a value that is not a JuneError', () => {
    const error = journalCallMissing('j', { step: 'plan' }, 0);
    expect(JuneError.detailsOf(error, 'capability-collision')).toBeUndefined();
    expect(JuneError.detailsOf(new Error('x'), 'journal-mismatch')).toBeUndefined();
    expect(JuneError.detailsOf(undefined, 'journal-mismatch')).toBeUndefined();
  });
});
