import type { Output, UserContent } from 'ai';
import { builtin } from '../elements/builtin.js';
import type { JuneNode } from '../elements/element.js';

/** What a prompt function can read: the results of the steps that ran before, by id. */
export interface StepContext {
  /** `steps[id]` is a finished step's result (text, or the parsed object with `output`). */
  steps: Readonly<Record<string, unknown>>;
}

/**
 * A step's user message: text, or the AI SDK's user content parts (`text`, `image` and
 * `file` parts), so a step can hand the model an image or a document with its words, e.g.
 * `[{ type: 'text', text: 'What is wrong here?' }, { type: 'file', mediaType: 'image/png', data: 'data:image/png;base64,...' }]`.
 * A file's `data` is a data: URL, an http(s) URL the model's provider takes as a URL, base64
 * text or bytes.
 */
export type StepPrompt = UserContent;

/** Props of {@link Step}. */
export interface StepProps<RESULT = any> {
  /** Unique within a run; the key of this step's result in `result.steps`. */
  id: string;
  /**
   * The user message for this step (text, or content parts with files: {@link StepPrompt}),
   * or a function of earlier results read when the step starts.
   */
  prompt: StepPrompt | ((context: StepContext) => StepPrompt | Promise<StepPrompt>);
  /** An AI SDK `Output` (e.g. `Output.object({ schema })`): the result becomes the parsed object. */
  output?: Output.Output<RESULT, any>;
  /**
   * One function of the step's result, rendered after the step in the same agent: how a
   * workflow branches on what the model said. A new `<Agent>` returned here resolves its
   * capabilities then.
   */
  children?: (result: RESULT) => JuneNode | Promise<JuneNode>;
}

/**
 * One AI SDK tool loop with the enclosing agent's tools, until its stop condition.
 * The prompt joins the agent's conversation as a user message, followed by the model's
 * response messages. Text streams as `text-delta` events.
 *
 * @throws {WorkflowError} `step-outside-agent` when no `<Agent>` encloses it;
 *   `step-id-duplicate` when another step of the run has the same id;
 *   `step-children-not-function` when its children are not one function.
 * @example
 * ```tsx
 * <Step id="triage" prompt="Is this a bug? Answer yes or no.">
 *   {(answer) => answer.includes('yes') && <Step id="fix" prompt="Fix it" />}
 * </Step>
 * ```
 */
export const Step = builtin(
  'step',
  'Step',
  <RESULT = any>(_props: StepProps<RESULT>): JuneNode => null,
);
