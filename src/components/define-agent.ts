import type { FlexibleSchema, Output } from 'ai';
import { declarationComponent, type CompositeToolSpec } from '../capabilities/declaration.js';
import { createElement, type JuneNode } from '../elements/element.js';
import { WorkflowError } from '../errors/june-error.js';
import { Agent, type AgentProps } from './agent.js';
import { Step } from './step.js';

/**
 * The id of the one step a defined agent runs. Its step path is `<name>:answer` (for
 * example `researcher:answer`, or `writer:researcher:answer` when the agent `writer` calls
 * it): approval requests, events and model scripts use it.
 */
export const DEFINED_AGENT_STEP_ID = 'answer';

/**
 * Options of {@link defineAgent}. Besides these, every `<Agent>` setting is accepted and
 * applies to the agent's own model calls: `model` (required), `instructions`, `stopWhen`,
 * `tools`, `providerOptions`, and the AI SDK call settings (`temperature`,
 * `maxOutputTokens`, `maxRetries`, ...).
 */
export interface DefineAgentOptions<INPUT = any, OUTPUT = string> extends Omit<
  AgentProps,
  'name' | 'children' | 'messages' | 'output'
> {
  /**
   * The tool name the calling model sees: letters, digits, `_` and `-`, 1 to 64 characters.
   * Also the agent's name in traces, the first part of its step path (`researcher:answer`),
   * and its notation in errors and provenance (`<researcher>`).
   */
  name: string;
  /** What the calling model reads about the tool. */
  description?: string;
  /** The input the calling model gives, as a zod schema (or any AI SDK `FlexibleSchema`). */
  input: FlexibleSchema<INPUT>;
  /**
   * Turns one call's input into the agent's prompt. Only the input crosses: the caller's
   * conversation does not, so the prompt must say all the agent needs to know.
   */
  prompt: (input: INPUT) => string | Promise<string>;
  /**
   * The agent's private capabilities, as JSX: `<Tool>`s, bundles, wrappers, other defined
   * agents, and `<Inherit capabilities={[...]}>` to take named tools of the calling agent.
   * Called once per call. @default none
   */
  capabilities?: () => JuneNode;
  /**
   * An AI SDK output such as `Output.object({ schema })`: the caller's model then gets the
   * parsed object as JSON. @default the answer's text, given as text
   */
  output?: Output.Output<OUTPUT, any>;
}

/** The component {@link defineAgent} returns: placed among an agent's children, it declares one tool. */
export type DefinedAgent = (props: Record<string, never>) => JuneNode;

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines an agent that other agents can call as one tool. Placed among an agent's
 * children (directly, or in a bundle or wrapper there), `<Researcher />` declares one tool,
 * named `name`. Each call runs the agent as a child run: its own model, instructions and
 * private capabilities, and one step (id `answer`, so its path is `researcher:answer`) whose
 * prompt is `prompt(input)`. The caller's model gets the answer's text, or with `output` the
 * parsed object as JSON.
 *
 * Everything a composite `<Tool>` does applies: approvals inside are asked through the
 * calling run (`researcher:answer`; nested calls join every level,
 * `writer:researcher:answer`), aborting the caller aborts the agent and waits for its
 * cleanup, a failure reaches the calling model as `june: the tool "researcher" failed: ...`,
 * and the tool call's trace output keeps `{ output, trace, usage }`. In errors and in the
 * caller's `capabilities` it is written `<researcher>`, marked `composite: true`.
 *
 * @throws {WorkflowError} at once: `tool-name-invalid` for a name that is not a valid tool
 *   name; `agent-model-missing` without `model`; `define-agent-invalid` without an `input`
 *   schema, or when `prompt` or `capabilities` is not a function. During a call (as the
 *   tool's failure): `define-agent-prompt-invalid` when `prompt` returns something other
 *   than a string, and every error of the agent's capabilities and step.
 * @example
 * ```tsx
 * const Researcher = defineAgent({
 *   name: 'researcher',
 *   description: 'Researches a question and reports what it found',
 *   input: z.object({ question: z.string() }),
 *   model: openai('gpt-5-mini'),
 *   instructions: 'You research carefully and cite what you find.',
 *   prompt: ({ question }) => `Research: ${question}`,
 *   capabilities: () => <Tool name="search" value={search} />,
 * });
 *
 * export default function Article() {
 *   return (
 *     <Agent model={openai('gpt-5')}>
 *       <Researcher />
 *       <Step id="write" prompt="Write a short article on how Suspense works" />
 *     </Agent>
 *   );
 * }
 * ```
 */
export function defineAgent<INPUT = any, OUTPUT = string>(
  options: DefineAgentOptions<INPUT, OUTPUT>,
): DefinedAgent {
  const { name, description, input, prompt, capabilities, output, ...settings } =
    checkOptions(options);
  const spec: CompositeToolSpec = {
    name,
    description,
    inputSchema: input,
    render: async (value: INPUT): Promise<JuneNode> => {
      const text = await prompt(value);
      if (typeof text !== 'string') {
        throw new WorkflowError(
          'define-agent-prompt-invalid',
          `june: the prompt function of defineAgent({ name: ${JSON.stringify(name)} }) returned ${text === null ? 'null' : typeof text}; return the step's prompt as a string.`,
        );
      }
      const step = createElement(Step, {
        id: DEFINED_AGENT_STEP_ID,
        prompt: text,
        ...(output !== undefined ? { output } : {}),
      });
      return createElement(Agent, { ...settings, name, children: [capabilities?.(), step] });
    },
  };
  const notation = `<${name}>`;
  return declarationComponent<Record<string, never>>(name, () => ({
    notation,
    composite: spec,
  })) as DefinedAgent;
}

function checkOptions<INPUT, OUTPUT>(
  options: DefineAgentOptions<INPUT, OUTPUT>,
): DefineAgentOptions<INPUT, OUTPUT> {
  const name = (options as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new WorkflowError(
      'tool-name-invalid',
      `june: defineAgent() got the name ${JSON.stringify(name) ?? 'undefined'}; the name is the tool name the calling model sees: letters, digits, "_" and "-", 1 to 64 characters (e.g. "researcher").`,
    );
  }
  const where = `defineAgent({ name: ${JSON.stringify(name)} })`;
  if (options.model === undefined || options.model === null) {
    throw new WorkflowError(
      'agent-model-missing',
      `june: ${where} has no model; pass model: ..., e.g. model: openai('gpt-5-mini') from june/sdk/openai.`,
    );
  }
  if (options.input === undefined || options.input === null) {
    throw new WorkflowError(
      'define-agent-invalid',
      `june: ${where} has no input schema; pass input: z.object({ ... }), what the calling model must give.`,
    );
  }
  if (typeof options.prompt !== 'function') {
    throw new WorkflowError(
      'define-agent-invalid',
      `june: ${where} needs prompt: (input) => "...", a function that turns the call's input into the agent's prompt.`,
    );
  }
  if (options.capabilities !== undefined && typeof options.capabilities !== 'function') {
    throw new WorkflowError(
      'define-agent-invalid',
      `june: ${where} has capabilities that are not a function; pass capabilities: () => <>...</>.`,
    );
  }
  return options;
}
