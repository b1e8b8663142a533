// result.output at run time: the default shape (the only step's result, or the object of
// every step's result by id), and run(el, { output }) given a schema or an AI SDK Output.
import { Output } from 'ai';
import { Agent, JuneError, run, Step } from 'june';
import { scriptedModel } from 'june/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { juneFailure } from '../helpers/june-failure.js';

const verdict = z.object({ ship: z.boolean() });
const verdictOutput = Output.object({ schema: verdict });

const reviewScript = { steps: { review: [{ object: { ship: true } }] } };
const Review = () => (
  <Agent model={scriptedModel(reviewScript)}>
    <Step id="review" prompt="Review" output={verdictOutput} />
  </Agent>
);
const releaseScript = {
  steps: { plan: [{ text: 'Ship 1.2 on Monday.' }], review: [{ object: { ship: false } }] },
};
const Release = () => (
  <Agent model={scriptedModel(releaseScript)}>
    <Step id="plan" prompt="Plan" />
    <Step id="review" prompt="Review the plan" output={verdictOutput} />
  </Agent>
);

describe('result.output by default', () => {
  it('is the only step’s result', async () => {
    expect((await run(<Review />).result).output).toEqual({ ship: true });
  });

  it('is, for several steps, an object of every step’s result by step id: result.steps', async () => {
    const { output, steps } = await run(<Release />).result;
    expect(output).toEqual({ plan: 'Ship 1.2 on Monday.', review: { ship: false } });
    expect(output).toEqual(steps);
    expect(output).not.toBe(steps);
  });
});

describe('run(el, { output }) with a schema', () => {
  it('checks and parses the only step’s result', async () => {
    const { output } = await run(<Review />, {
      output: verdict.transform(({ ship }) => (ship ? 'ship' : 'hold')),
    }).result;
    expect(output).toBe('ship');
  });

  it('checks the object of every step’s result for several steps', async () => {
    const { output } = await run(<Release />, {
      output: z.object({ plan: z.string(), review: verdict }),
    }).result;
    expect(output).toEqual({ plan: 'Ship 1.2 on Monday.', review: { ship: false } });
  });

  it('fails the run with run-output-invalid, naming what the output is, when it does not fit', async () => {
    const error = await juneFailure(run(<Release />, { output: verdict }).result);
    expect(error.code).toBe('run-output-invalid');
    expect(error.message).toMatch(
      /^june: the run's output does not fit the schema given as run\(\.\.\., \{ output \}\): /,
    );
    expect(error.message).toContain(`the object of every step's result by id ("plan", "review")`);
    expect((error as JuneError & { trace?: { status: string } }).trace?.status).toBe('failed');
  });
});

describe('run(el, { output }) with an AI SDK Output', () => {
  it('gives the only step’s result', async () => {
    expect((await run(<Review />, { output: verdictOutput }).result).output).toEqual({
      ship: true,
    });
  });

  it('fails for a workflow of several steps, naming them', async () => {
    const error = await juneFailure(run(<Release />, { output: verdictOutput }).result);
    expect(error.code).toBe('run-output-invalid');
    expect(error.message).toContain('the run finished 2 steps (plan, review)');
  });

  it('fails when the step gave another kind of result than the Output makes', async () => {
    const error = await juneFailure(run(<Review />, { output: Output.text() }).result);
    expect(error.code).toBe('run-output-invalid');
    expect(error.message).toContain('whose result is a string, but step "review" gave an object');
  });
});
