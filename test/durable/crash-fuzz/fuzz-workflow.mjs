// The crash-fuzz workflow, in plain JavaScript so a child process can run it from the built
// package (node fuzz-worker.mjs) and a test can run it in its own process.
//
// main calls the composite tool outer twice; each outer run writes, asks for approval, and
// calls the composite tool inner (two levels deep), which writes and asks for approval too.
// Tools append a line to a file when they run; the model appends a line to a file for every
// call it is paid for. Answers depend only on the request, so a new process answers alike.
import { appendFileSync } from 'node:fs';
import { tool } from 'ai';
import { Agent, Step, Tool } from 'june';
import { jsx, jsxs } from 'june/jsx-runtime';
import { scriptedModel } from 'june/testing';
import { z } from 'zod';

/** A model call's identity as the model sees it: step, turn and the step's prompt. */
export function modelKey(step, prompt) {
  const lastUser = prompt.map((message) => message.role).lastIndexOf('user');
  const turn =
    prompt.slice(lastUser + 1).filter((message) => message.role === 'assistant').length + 1;
  const user = prompt[lastUser]?.content.map((part) => part.text ?? '').join('') ?? '';
  return { key: `${step}|${turn}|${user}`, turn, user };
}

/** What tool results the conversation holds since the step's prompt, as text. */
function seen(prompt) {
  const lastUser = prompt.map((message) => message.role).lastIndexOf('user');
  return prompt
    .slice(lastUser + 1)
    .filter((message) => message.role === 'tool')
    .flatMap((message) =>
      message.content.map(
        (part) =>
          `${part.toolName}=${JSON.stringify(part.output?.value ?? part.output?.reason ?? part.output?.type ?? null)}`,
      ),
    )
    .join('; ');
}

function turnOf(step, turn, user, prompt) {
  const n = user.replace(/\D/g, '');
  const call = (tool, input) => ({ toolCalls: [{ id: `call_${turn}`, tool, input }] }); // ids repeat every turn, as some providers do
  if (step === 'main')
    return turn <= 2 ? call('outer', { n: turn }) : { text: `main saw: ${seen(prompt)}` };
  if (step === 'outer:go')
    return (
      [
        call('write', { text: `o${n}` }),
        call('approve_me', { n: Number(n) }),
        call('inner', { n: Number(n) }),
      ][turn - 1] ?? { text: `outer ${n} saw: ${seen(prompt)}` }
    );
  if (step === 'outer:inner:go')
    return (
      [call('write', { text: `i${n}` }), call('risky', { n: Number(n) })][turn - 1] ?? {
        text: `inner ${n} saw: ${seen(prompt)}`,
      }
    );
  throw new Error(`fuzz model: no answer for step ${step}`);
}

/** The model: logs `<key>\t<attempt>` to `modelLog` for every call it answers. */
export function fuzzModel(modelLog, attempt) {
  const answer = (options) => {
    const step = options.providerOptions?.june?.step ?? '';
    const { key, turn, user } = modelKey(step, options.prompt);
    appendFileSync(modelLog, `${key}\t${attempt}\n`);
    return scriptedModel(
      {
        $comment: 'Crash-fuzz fixture: one turn',
        steps: { [step]: [turnOf(step, turn, user, options.prompt)] },
      },
      { name: 'fuzz' },
    );
  };
  return {
    specificationVersion: 'v3',
    provider: 'fuzz',
    modelId: 'fuzz',
    supportedUrls: {},
    doGenerate: (options) => answer(options).doGenerate(options),
    doStream: async (options) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return answer(options).doStream(options);
    },
  };
}

/** The tools: each execution appends `<tool> <input>\t<attempt>` to `effects`. */
export function fuzzTools(effects, attempt) {
  const effect = (name) => async (input) => {
    appendFileSync(effects, `${name} ${JSON.stringify(input)}\t${attempt}\n`);
    await new Promise((resolve) => setTimeout(resolve, 2));
    return `${name} done`;
  };
  return {
    write: tool({
      description: 'Write a line',
      inputSchema: z.object({ text: z.string() }),
      execute: effect('write'),
    }),
    approve_me: tool({
      description: 'Needs approval',
      inputSchema: z.object({ n: z.number() }),
      needsApproval: true,
      execute: effect('approve_me'),
    }),
    risky: tool({
      description: 'Needs approval',
      inputSchema: z.object({ n: z.number() }),
      needsApproval: true,
      execute: effect('risky'),
    }),
  };
}

/** The workflow element. */
export function fuzzWorkflow(model, tools) {
  const inner = ({ n }) =>
    jsxs(Agent, {
      model,
      children: [
        jsx(Tool, { name: 'write', value: tools.write }),
        jsx(Tool, { name: 'risky', value: tools.risky }),
        jsx(Step, { id: 'go', prompt: `Inner ${n}` }),
      ],
    });
  const outer = ({ n }) =>
    jsxs(Agent, {
      model,
      children: [
        jsx(Tool, { name: 'write', value: tools.write }),
        jsx(Tool, { name: 'approve_me', value: tools.approve_me }),
        jsx(Tool, {
          name: 'inner',
          description: 'Inner work',
          input: z.object({ n: z.number() }),
          children: inner,
        }),
        jsx(Step, { id: 'go', prompt: `Outer ${n}` }),
      ],
    });
  return jsxs(Agent, {
    model,
    children: [
      jsx(Tool, {
        name: 'outer',
        description: 'Outer work',
        input: z.object({ n: z.number() }),
        children: outer,
      }),
      jsx(Step, { id: 'main', prompt: 'Run the work' }),
    ],
  });
}

/** The identity of an approval across processes: the tool and its input. */
export const approvalKey = (tool, input) => `${tool} ${JSON.stringify(input)}`;
