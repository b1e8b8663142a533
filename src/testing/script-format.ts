import type { JSONValue } from '@ai-sdk/provider';
import { z } from 'zod';
import { WorkflowError } from '../errors/index.js';

/**
 * The answer a script gives to the approval request of one of its tool calls, as a person
 * would (through the scripted model's `approvals` source, named `script`):
 *
 * - `approved`: approve or deny the call;
 * - `reason`: a denial's reason, which the model reads;
 * - `input` (with `approved: true`): approve with this input instead of the scripted one
 *   (an edit, checked against the tool's input schema);
 * - `output` (with `approved: false`): answer instead of the tool, which does not run; the
 *   model reads it as the tool's result;
 * - `answeredBy`: who answered, as the records show it.
 *
 * @example
 * ```ts
 * const answer: ScriptApprovalAnswer = { approved: true, input: { env: 'staging' }, answeredBy: 'ana' };
 * ```
 */
export interface ScriptApprovalAnswer {
  approved: boolean;
  reason?: string;
  input?: JSONValue;
  output?: JSONValue;
  answeredBy?: string;
}

/**
 * One tool call a scripted turn makes.
 *
 * - `tool`: the tool's name, as the agent has it (checked on every call).
 * - `input`: the tool's input, any JSON value; `{}` when left out.
 * - `id`: the tool call id; `call_<step>_<turn>_<n>` when left out (`turn` and `n` 1-based).
 * - `answer`: when the call needs approval, the answer the script gives it
 *   ({@link ScriptApprovalAnswer}); without one, the request waits for another answer.
 *
 * @example
 * ```ts
 * const call: ScriptToolCall = { tool: 'readFile', input: { path: 'CHANGELOG.md' } };
 * ```
 */
export interface ScriptToolCall {
  tool: string;
  input?: JSONValue;
  id?: string;
  answer?: ScriptApprovalAnswer;
}

/**
 * Token counts a scripted turn reports, instead of the deterministic default
 * (a quarter of the prompt's JSON length in, a quarter of the answer's length out, at least 1).
 *
 * @example
 * ```ts
 * const usage: ScriptUsage = { inputTokens: 1200, outputTokens: 80 };
 * ```
 */
export interface ScriptUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * One model call's answer. It has at least one of `text`, `toolCalls`, `object` or `error`:
 *
 * - `text`: the answer's text, streamed word by word;
 * - `toolCalls`: tool calls the model makes (the turn then finishes with `tool-calls`);
 * - `object`: a JSON value sent as the text, for steps with structured `output` (not with `text`);
 * - `error`: the call fails with this message (alone: no text, tool calls, object or usage);
 * - `usage`: token counts for the call;
 * - `$comment`: a note for readers, ignored.
 *
 * @example
 * ```ts
 * const turn: ScriptTurn = { text: 'Reading the changelog.', toolCalls: [{ tool: 'readFile', input: { path: 'CHANGELOG.md' } }] };
 * ```
 */
export interface ScriptTurn {
  $comment?: string;
  text?: string;
  toolCalls?: ScriptToolCall[];
  object?: JSONValue;
  usage?: ScriptUsage;
  error?: string;
}

/**
 * A scripted conversation: for each step path (`release`, or `research:findings` inside the
 * composite tool `research`), the turns its model calls get, in order. A test fixture.
 *
 * @example
 * ```ts
 * const script: ModelScript = {
 *   $comment: 'Test fixture: scripted model turns for examples/release.tsx',
 *   steps: { release: [{ text: 'Deployed to staging.' }] },
 * };
 * ```
 */
export interface ModelScript {
  $comment?: string;
  steps: Record<string, ScriptTurn[]>;
}

const answerSchema = z
  .strictObject({
    approved: z.boolean(),
    reason: z.string().optional(),
    input: z.json().optional(),
    output: z.json().optional(),
    answeredBy: z.string().min(1).optional(),
  })
  .superRefine((answer, ctx) => {
    if (answer.input !== undefined && !answer.approved)
      ctx.addIssue({
        code: 'custom',
        path: ['input'],
        message:
          'an edited input comes with approved: true (to answer instead of the tool, give output)',
      });
    if (answer.output !== undefined && answer.approved)
      ctx.addIssue({
        code: 'custom',
        path: ['output'],
        message:
          'an answer instead of the tool comes with approved: false, as the tool does not run',
      });
  });

const toolCallSchema = z.strictObject({
  tool: z.string().min(1),
  input: z.json().optional(),
  id: z.string().min(1).optional(),
  answer: answerSchema.optional(),
});

const usageSchema = z.strictObject({
  inputTokens: z.int().nonnegative(),
  outputTokens: z.int().nonnegative(),
});

const turnSchema = z
  .strictObject({
    $comment: z.string().optional(),
    text: z.string().optional(),
    toolCalls: z.array(toolCallSchema).min(1).optional(),
    object: z.json().optional(),
    usage: usageSchema.optional(),
    error: z.string().min(1).optional(),
  })
  .superRefine((turn, ctx) => {
    const has = (key: keyof ScriptTurn) => turn[key] !== undefined;
    if (!has('text') && !has('toolCalls') && !has('object') && !has('error')) {
      ctx.addIssue({
        code: 'custom',
        message: 'a turn needs at least one of text, toolCalls, object or error',
      });
    }
    if (has('text') && has('object')) {
      ctx.addIssue({
        code: 'custom',
        path: ['object'],
        message: 'a turn has text or object, not both (object is sent as the text)',
      });
    }
    if (has('error') && (has('text') || has('toolCalls') || has('object') || has('usage'))) {
      ctx.addIssue({
        code: 'custom',
        path: ['error'],
        message: 'a turn with error fails the call, so it has no text, toolCalls, object or usage',
      });
    }
  });

/**
 * The zod schema of a {@link ModelScript}: unknown fields are rejected, so a typo such as
 * `toolcalls` fails instead of being ignored. Step paths are step ids joined by `:`.
 *
 * @example
 * ```ts
 * modelScriptSchema.parse(JSON.parse(text));
 * ```
 */
export const modelScriptSchema: z.ZodType<ModelScript> = z.strictObject({
  $comment: z.string().optional(),
  steps: z.record(
    z
      .string()
      .regex(/^[^:]+(:[^:]+)*$/, 'a step path is step ids joined by ":", e.g. "research:findings"'),
    z.array(turnSchema).min(1),
  ),
});

/**
 * Checks a value against {@link modelScriptSchema} and returns it as a {@link ModelScript}.
 *
 * @param value - the parsed script.
 * @param source - where it came from, for the message (a file path), or undefined for a
 *   script passed as an object.
 * @throws {WorkflowError} `script-invalid` when a field is wrong; the message names the
 *   source and the JSON path of each bad field (`$.steps.release[1].toolCalls[0].tool`).
 * @example
 * ```ts
 * const script = validateScript({ steps: { release: [{ text: 'Done.' }] } });
 * ```
 */
export function validateScript(value: unknown, source?: string): ModelScript {
  const parsed = modelScriptSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => describeIssue(issue, value));
  const more = parsed.error.issues.length > 5 ? `; and ${parsed.error.issues.length - 5} more` : '';
  throw new WorkflowError(
    'script-invalid',
    `june: ${scriptLabel(source)} is invalid: ${problems.join('; ')}${more}. ` +
      'Fix the script (its format is in docs/offline-scripts.md).',
  );
}

/**
 * How messages name a script: `the model script <path>`, or `the model script` for one
 * passed as an object.
 *
 * @example
 * ```ts
 * scriptLabel('test/fixtures/scripts/release.json'); // 'the model script test/fixtures/scripts/release.json'
 * ```
 */
export function scriptLabel(source: string | undefined): string {
  return source === undefined ? 'the model script' : `the model script ${source}`;
}

/**
 * Formats a path into a script as JSONPath: `$.steps["research:findings"][0].text`.
 *
 * @example
 * ```ts
 * jsonPath(['steps', 'release', 1, 'toolCalls']); // '$.steps.release[1].toolCalls'
 * ```
 */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    const name = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(name) ? `${out}.${name}` : `${out}[${JSON.stringify(name)}]`;
  }, '$');
}

function describeIssue(issue: z.core.$ZodIssue, script: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${jsonPath([...issue.path, key])}: unknown field`).join('; ');
  }
  if (issue.code === 'invalid_key') {
    return `${jsonPath(issue.path)}: ${issue.issues[0]?.message ?? issue.message}`;
  }
  if (issue.code === 'invalid_type' && valueAt(script, issue.path) === undefined) {
    return `${jsonPath(issue.path)}: missing (expected ${issue.expected})`;
  }
  return `${jsonPath(issue.path)}: ${issue.message}`;
}

function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  return path.reduce<unknown>(
    (inner, key) =>
      typeof inner === 'object' && inner !== null
        ? (inner as Record<PropertyKey, unknown>)[key]
        : undefined,
    value,
  );
}
