// Shared helpers of the capability tests: small tools, a model that records calls, and an
// assertion for June's errors.
import { tool } from 'ai';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { inspect, JuneError, run, type JuneElement } from 'june';
import { expect } from 'vitest';
import { z } from 'zod';

/** A tool that returns `<label> ran`; `needsApproval` as given. */
export function makeTool(label: string, needsApproval?: boolean | (() => boolean)) {
  return tool({
    description: `The ${label} tool`,
    inputSchema: z.object({}),
    ...(needsApproval === undefined ? {} : { needsApproval }),
    execute: async () => `${label} ran`,
  });
}

export const alpha = makeTool('alpha');
export const beta = makeTool('beta');
export const gamma = makeTool('gamma');

/**
 * A model that answers "done" (streamed or not) and records every call (`doStreamCalls`,
 * `doGenerateCalls`); `onCall` runs at each call, before it answers.
 */
export function recordingModel(onCall: () => void = () => {}): MockLanguageModelV3 {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  return new MockLanguageModelV3({
    doGenerate: async () => {
      onCall();
      return {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    doStream: async () => {
      onCall();
      return {
        stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'done' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        ]),
      };
    },
  });
}

/** A model June's tests share where no call is expected. */
export const model = recordingModel();

/** The catch of a promise that must reject with a JuneError. */
export async function juneErrorOf(promise: Promise<unknown>): Promise<JuneError> {
  try {
    await promise;
  } catch (error) {
    if (JuneError.isInstance(error)) return error;
    throw new Error(`expected a JuneError, got ${String(error)}`);
  }
  throw new Error('expected a JuneError, but nothing was thrown');
}

/**
 * Resolves `workflow` both ways a user meets it, expecting the same error from each:
 * `inspect()`, and `run()` with a recording model that must never be called.
 * Returns the error of the run.
 */
export async function expectTreeError(workflow: JuneElement, code: string): Promise<JuneError> {
  const inspected = await juneErrorOf(inspect(workflow));
  expect(inspected.code).toBe(code);
  const recording = recordingModel();
  const error = await juneErrorOf(run(workflow, { model: recording }).result);
  expect(error.code).toBe(code);
  expect(error.message).toBe(inspected.message);
  expect(error.message.startsWith('june: ')).toBe(true);
  expect(recording.doStreamCalls.length + recording.doGenerateCalls.length).toBe(0);
  return error;
}

/** `name: needsApproval` of every agent's tools, by agent path, for compact assertions. */
export async function toolsOf(
  workflow: JuneElement,
): Promise<Array<Record<string, boolean | 'dynamic'>>> {
  const report = await inspect(workflow);
  return report.agents.map((agent) =>
    Object.fromEntries(agent.tools.map((t) => [t.name, t.needsApproval])),
  );
}
