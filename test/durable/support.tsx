// Helpers for the durable-run tests: a model whose answers depend only on the request (so a
// fresh copy, as in a new process, answers a resumed run the same way) and that counts its
// calls; tools that count their executions; a release workflow with an approval three
// composite levels down.
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { Agent, Step, Tool, type RunEvent, type RunHandle } from 'june';
import { scriptedModel, type ScriptTurn } from 'june/testing';
import { z } from 'zod';

/** One model call a {@link turnModel} answered: its step path and its turn within the step (1-based). */
export interface TurnCall {
  step: string;
  turn: number;
}

/**
 * A streaming model answering from `steps` (turns keyed by step path, as in a model script),
 * where the turn is read off the request: the number of assistant messages after the last
 * user message, plus one. It keeps no state between calls, so a new copy answers a resumed
 * run as the first copy would have. `calls` lists the calls it answered.
 * Tool calls need explicit ids (`id`), unique in the script.
 */
export function turnModel(
  steps: Record<string, ScriptTurn[]>,
): LanguageModelV4 & { calls: TurnCall[] } {
  return answerModel((step, turn) => steps[step]?.[turn - 1]);
}

/**
 * Like {@link turnModel}, with each turn made by `turnOf(step, turn, prompt, options)` (the
 * prompt's first user message as text, and the whole call), so a composite tool's child runs
 * can answer by their input and a turn by the tool results before it. `modelId` names it.
 */
export function answerModel(
  turnOf: (
    step: string,
    turn: number,
    prompt: string,
    options: LanguageModelV4CallOptions,
  ) => ScriptTurn | undefined,
  modelId = 'turns',
): LanguageModelV4 & { calls: TurnCall[] } {
  const calls: TurnCall[] = [];
  const answer = (options: LanguageModelV4CallOptions) => {
    const step = (options.providerOptions?.june as { step?: string } | undefined)?.step ?? '';
    const lastUser = options.prompt.map((message) => message.role).lastIndexOf('user');
    const turn =
      options.prompt.slice(lastUser + 1).filter((message) => message.role === 'assistant').length +
      1;
    const user = options.prompt[lastUser];
    const prompt =
      user?.role === 'user'
        ? user.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
        : '';
    const scripted = turnOf(step, turn, prompt, options);
    if (!scripted) throw new Error(`turnModel: no turn ${turn} for step "${step}"`);
    calls.push({ step, turn });
    return scriptedModel(
      { $comment: 'Test fixture: one turn', steps: { [step]: [scripted] } },
      { name: 'turns' },
    );
  };
  return {
    specificationVersion: 'v4',
    provider: 'test',
    modelId,
    supportedUrls: {},
    calls,
    doGenerate: (options) => answer(options).doGenerate(options),
    doStream: (options) => answer(options).doStream(options),
  };
}

/** A model that fails the test if it is called. */
export function unreachableModel(): LanguageModelV4 & { calls: number } {
  const model = {
    specificationVersion: 'v4' as const,
    provider: 'test',
    modelId: 'unreachable',
    supportedUrls: {},
    calls: 0,
    doGenerate: async () => {
      model.calls++;
      throw new Error('the model was called during a replay');
    },
    doStream: async () => {
      model.calls++;
      throw new Error('the model was called during a replay');
    },
  };
  return model;
}

/** The release tools; `ran` lists each execution as `tool:input`, across runs. */
export function releaseTools(options: { deployWaitsForAbort?: boolean } = {}) {
  const ran: string[] = [];
  return {
    ran,
    lookup: tool({
      description: 'Look up the release notes',
      inputSchema: z.object({ version: z.string() }),
      execute: async ({ version }) => {
        ran.push(`lookup:${version}`);
        return `notes for ${version}`;
      },
    }),
    check: tool({
      description: 'Check the build',
      inputSchema: z.object({ version: z.string() }),
      execute: async ({ version }) => {
        ran.push(`check:${version}`);
        return { green: true, checkedAt: new Date('2026-01-02T03:04:05Z') };
      },
    }),
    deploy: tool({
      description: 'Deploy to an environment',
      inputSchema: z.object({ env: z.string() }),
      needsApproval: true,
      execute: async ({ env }, { abortSignal }) => {
        ran.push(`deploy:${env}`);
        if (options.deployWaitsForAbort) {
          await new Promise((_resolve, reject) =>
            abortSignal?.addEventListener('abort', () => reject(new Error('deploy stopped'))),
          );
        }
        return `deployed to ${env}`;
      },
    }),
  };
}

type ReleaseTools = ReturnType<typeof releaseTools>;

/**
 * plan (top) calls lookup, then the composite tool release (it may call deploy too); release:prepare calls check,
 * then the composite tool ship; release:ship:go calls deploy, which needs approval.
 */
export function Release({
  model,
  tools,
  task = 'Release 1.2',
  prepare = 'Prepare',
}: {
  model: LanguageModelV4;
  tools: ReleaseTools;
  task?: string;
  prepare?: string;
}) {
  return (
    <Agent model={model}>
      <Tool name="lookup" value={tools.lookup} />
      <Tool name="deploy" value={tools.deploy} />
      <Tool
        name="release"
        description="Prepare and ship a version"
        input={z.object({ version: z.string() })}
      >
        {({ version }) => (
          <Agent model={model}>
            <Tool name="check" value={tools.check} />
            <Tool
              name="ship"
              description="Ship to an environment"
              input={z.object({ env: z.string() })}
            >
              {({ env }) => (
                <Agent model={model}>
                  <Tool name="deploy" value={tools.deploy} />
                  <Step id="go" prompt={`Deploy ${version} to ${env}`} />
                </Agent>
              )}
            </Tool>
            <Step id="prepare" prompt={`${prepare} ${version}`} />
          </Agent>
        )}
      </Tool>
      <Step id="plan" prompt={task} />
    </Agent>
  );
}

/** The turns of {@link Release}: 8 model calls in all. */
export const releaseTurns: Record<string, ScriptTurn[]> = {
  plan: [
    { toolCalls: [{ id: 'c_lookup', tool: 'lookup', input: { version: '1.2' } }] },
    { toolCalls: [{ id: 'c_release', tool: 'release', input: { version: '1.2' } }] },
    { text: 'Released 1.2.' },
  ],
  'release:prepare': [
    { toolCalls: [{ id: 'c_check', tool: 'check', input: { version: '1.2' } }] },
    { toolCalls: [{ id: 'c_ship', tool: 'ship', input: { env: 'prod' } }] },
    { text: 'Prepared and shipped.' },
  ],
  'release:ship:go': [
    { toolCalls: [{ id: 'c_deploy', tool: 'deploy', input: { env: 'prod' } }] },
    { text: 'Deploy finished.' },
  ],
};

/** Resolves with the first event `predicate` accepts. */
export async function firstEvent<E extends RunEvent>(
  handle: RunHandle,
  predicate: (event: RunEvent) => event is E,
): Promise<E> {
  for await (const event of handle.events) if (predicate(event)) return event;
  throw new Error('the run ended before the awaited event');
}

/** Collects every event of a run. */
export function collect(handle: RunHandle): { events: RunEvent[]; done: Promise<void> } {
  const events: RunEvent[] = [];
  const done = (async () => {
    for await (const event of handle.events) events.push(event);
  })();
  return { events, done };
}

export const isApprovalRequest = (
  event: RunEvent,
): event is Extract<RunEvent, { type: 'approval-request' }> => event.type === 'approval-request';
