import { confirm, input, number, select } from '@inquirer/prompts';
import { visibleText } from './visible-text.js';
import { answerSchemaSummary } from '../approvals/answer-schema-summary.js';

/** The terminal and abort signal a prompt runs with. */
export type PromptContext = Parameters<typeof input>[1];

/** A JSON Schema (draft-07) as far as the form reads it. */
interface Schema {
  items?: Schema;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  title?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

/** The schema's one type, when it names exactly one besides `null`. */
function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  const types = (schema.type ?? []).filter((type) => type !== 'null');
  return types.length === 1 ? types[0] : undefined;
}

/** Whether `schema` is asked with one prompt of its own: a choice, a number, a text or a yes/no. */
function isSimple(schema: Schema): boolean {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return true;
  const type = typeOf(schema);
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean';
}

/** Whether `text` is a JSON value. */
function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON value typed at the prompt, its shape (`schema`) shown, with `previous` (what was typed before) as the default. */
async function jsonInput(
  message: string,
  schema: Schema,
  previous: unknown,
  context: PromptContext,
  required = true,
): Promise<unknown> {
  const typed = await input(
    {
      message: `${message} (JSON, ${visibleText(answerSchemaSummary(schema as Record<string, unknown>))}):`,
      default: previous === undefined ? '' : JSON.stringify(previous),
      prefill: 'editable',
      validate: (text) =>
        (!required && text.trim() === '') || parsesAsJson(text)
          ? true
          : 'This is not JSON; check quotes and brackets.',
    },
    context,
  );
  return typed.trim() === '' ? undefined : (JSON.parse(typed) as unknown);
}

/**
 * Asks for one value of a simple `schema` (see {@link isSimple}): an `enum` as a select, a
 * `number`/`integer` as a number (whole numbers for `integer`), a `boolean` as a yes/no, a
 * `string` as text. `previous` is the default; an optional value left empty is `undefined`.
 */
async function simpleInput(
  message: string,
  schema: Schema,
  previous: unknown,
  context: PromptContext,
  required: boolean,
): Promise<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return select(
      {
        message,
        choices: schema.enum.map((value) => ({
          name: visibleText(typeof value === 'string' ? value : JSON.stringify(value)),
          value,
        })),
        ...(previous !== undefined && schema.enum.includes(previous) ? { default: previous } : {}),
      },
      context,
    );
  }
  const type = typeOf(schema);
  if (type === 'boolean')
    return confirm(
      { message, ...(typeof previous === 'boolean' ? { default: previous } : {}) },
      context,
    );
  if (type === 'number' || type === 'integer')
    return number(
      {
        message,
        required,
        step: type === 'integer' ? 1 : 'any',
        ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
        ...(schema.maximum !== undefined ? { max: schema.maximum } : {}),
        ...(typeof previous === 'number' ? { default: previous } : {}),
      },
      context,
    );
  const text = await input(
    {
      message,
      required,
      ...(typeof previous === 'string' ? { default: previous, prefill: 'editable' as const } : {}),
    },
    context,
  );
  return !required && text === '' ? undefined : text;
}

/**
 * Asks a person at the terminal for an answer that fits `answerSchema` (JSON Schema
 * draft-07), with `@inquirer/prompts`: an `enum` is a select, a `number` or `integer` a number
 * input, a `string` a text input, a `boolean` a yes/no; an `object` is one prompt per
 * property, each as above, or as JSON when the property is an array or object itself (an
 * optional property left empty is left out); anything else is one JSON input. `previous`, an
 * answer given before (one the schema refused), fills the defaults.
 *
 * The form does not check the answer against the schema beyond what its prompts hold: the
 * inbox does, and the caller asks again with what it refused.
 *
 * @returns the answer, a JSON value
 * @throws whatever the prompts throw: `ExitPromptError` on Ctrl-C, `AbortPromptError` when `context.signal` aborts
 */
export async function questionForm(
  answerSchema: Record<string, unknown>,
  previous: unknown,
  context: PromptContext,
): Promise<unknown> {
  const schema = answerSchema as Schema;
  if (isSimple(schema)) return simpleInput('Answer:', schema, previous, context, true);
  if (typeOf(schema) === 'object' && schema.properties) {
    const required = new Set(schema.required ?? []);
    const before = (previous !== null && typeof previous === 'object' ? previous : {}) as Record<
      string,
      unknown
    >;
    const answer: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const label = visibleText(property.description ?? property.title ?? name);
      const message = `${label}${label === name ? '' : ` (${visibleText(name)})`}${required.has(name) ? '' : ' (optional)'}`;
      const value = isSimple(property)
        ? await simpleInput(`${message}:`, property, before[name], context, required.has(name))
        : await jsonInput(message, property, before[name], context, required.has(name));
      if (value !== undefined) answer[name] = value;
    }
    return answer;
  }
  return jsonInput('Answer', schema, previous, context);
}
