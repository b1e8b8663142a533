import type { FlexibleSchema, LanguageModelUsage, Tool as AiTool } from 'ai';
import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** Props of {@link Tool} declaring an existing AI SDK tool. */
export interface ValueToolProps {
  /** The name the model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** An AI SDK tool, e.g. made with `tool({ description, inputSchema, execute })`. */
  value: AiTool<any, any>;
  description?: never;
  input?: never;
  output?: never;
  children?: never;
}

/**
 * What a composite tool's `output` function reads: the child run's results.
 * - `steps[id]`: each step's result (text, or the parsed object of a step with `output`);
 * - `usage`: the tokens the child run used (its nested child runs included).
 */
export interface CompositeToolRunResult {
  steps: Readonly<Record<string, unknown>>;
  usage: LanguageModelUsage;
}

/**
 * Props of {@link Tool} declaring a composite tool: a workflow that the calling model sees
 * as one tool. Each call renders `children(input)` and runs it as a child run.
 */
export interface CompositeToolProps<INPUT = any> {
  /** The name the model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** What the calling model reads about the tool. */
  description?: string;
  /** The input the model must give, as a zod schema (or any AI SDK `FlexibleSchema`). Required. */
  input: FlexibleSchema<INPUT>;
  /**
   * Picks what the calling model gets from the child run (a string goes back as text,
   * anything else as JSON; may be async).
   * @default the result of the workflow's only step, or an object of every step's result
   */
  output?: (result: CompositeToolRunResult) => unknown;
  /** The workflow, rendered once per call with the model's parsed input. */
  children: (input: INPUT) => JuneNode | Promise<JuneNode>;
  value?: never;
}

/**
 * Props of {@link Tool}: either an AI SDK tool as `value`, or a workflow as the only child
 * (a composite tool, with `description`, `input` and optionally `output`).
 */
export type ToolProps<INPUT = any> = ValueToolProps | CompositeToolProps<INPUT>;

/**
 * Declares one tool as a capability of the enclosing agent. Place it directly in an
 * `<Agent>`'s children, or in a fragment, array, bundle or wrapper there.
 *
 * With a function as its child it is a composite tool: the calling model sees one tool
 * (`name`, `description`, `input`); each call runs the function's workflow as a child run
 * with its own agents, trace and usage, and the model gets the run's output. Approvals
 * inside go to the calling run (step path `research:findings`), aborting the call aborts
 * the workflow, and a failure reaches the model as `june: the tool "research" failed: ...`.
 *
 * @throws {WorkflowError} `capability-collision` when another capability of the agent
 *   exposes the same name; `capability-in-component` when rendered from a component;
 *   `tool-value-invalid` when it has no tool `value`, both a value and a function child,
 *   or a function child but no `input` schema.
 * @example
 * ```tsx
 * <Agent model={model}>
 *   <Tool name="readFile" value={readFile} />
 *   <Tool name="research" description="Research a question" input={z.object({ question: z.string() })}>
 *     {({ question }) => (
 *       <Agent model={model}>
 *         <Tool name="search" value={search} />
 *         <Step id="findings" prompt={`Research: ${question}`} />
 *       </Agent>
 *     )}
 *   </Tool>
 *   <Step id="report" prompt="Research how Suspense works, then summarize" />
 * </Agent>
 * ```
 */
export const Tool = builtin(
  'tool',
  'Tool',
  <INPUT = any>(_props: ToolProps<INPUT>): JuneNode => null,
);
