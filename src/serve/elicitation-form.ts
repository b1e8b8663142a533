import type { ApprovalRequest } from '../approvals/approval-request.js';
import type { ApprovalAnswerInput } from '../host/approval-desk.js';
import { REDACTED } from '../redaction/redactor.js';

/** A form an MCP client shows (`elicitation/create`): a flat object of primitive fields. */
export interface ElicitationForm {
  message: string;
  requestedSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
}

/** What an MCP client answered a form with (`ElicitResult`). */
export interface ElicitationReply {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown> | undefined;
}

/** The keywords an elicitation's primitive field may carry (the MCP spec's `PrimitiveSchemaDefinition`). */
const FIELD_KEYWORDS = [
  'type',
  'title',
  'description',
  'enum',
  'enumNames',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'format',
];
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * The schema as an elicitation's field, when it is one: a string (with an `enum`, a
 * `format` the spec knows, lengths), a number or integer (with bounds) or a boolean.
 * Undefined for anything else (an object, an array, a union), which goes as JSON text.
 */
export function primitiveField(
  schema: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const type = schema.type ?? (Array.isArray(schema.enum) ? 'string' : undefined);
  if (!['string', 'number', 'integer', 'boolean'].includes(type as string)) return undefined;
  if (Array.isArray(schema.enum) && !schema.enum.every((value) => typeof value === 'string'))
    return undefined;
  const field: Record<string, unknown> = { type };
  for (const keyword of FIELD_KEYWORDS)
    if (keyword !== 'type' && schema[keyword] !== undefined) field[keyword] = schema[keyword];
  if (field.format !== undefined && !FORMATS.has(field.format as string)) delete field.format;
  return field;
}

/**
 * The fields of an object schema whose properties are all primitives ({@link
 * primitiveField}); undefined for a nested one (a property that is an object, an array, a
 * union), which an elicitation cannot show field by field.
 */
export function flatFields(
  schema: Record<string, unknown> | undefined,
): { fields: Record<string, Record<string, unknown>>; required: string[] } | undefined {
  if (!schema || schema.type !== 'object' || typeof schema.properties !== 'object')
    return undefined;
  const fields: Record<string, Record<string, unknown>> = {};
  for (const [name, property] of Object.entries(schema.properties as Record<string, unknown>)) {
    const field = primitiveField(property as Record<string, unknown>);
    if (!field) return undefined;
    fields[name] = field;
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return { fields, required };
}

const APPROVE = 'approve';
const REASON = 'reason';
const INPUT_JSON = 'input';
const ANSWER = 'answer';

/** How a form's fields map back to an answer: which fields hold the edit or the answer. */
export type FormShape =
  | { kind: 'approval'; edit: 'fields' | 'json' | 'none'; editFields: string[]; input: unknown }
  | { kind: 'question'; answer: 'fields' | 'field' | 'json'; answerFields: string[] };

/**
 * The elicitation that asks a served call's caller for one request, and how to read the
 * reply. An approval asks `approve` (a boolean), a `reason` for a denial, and the input as
 * it should run: one field per property, each filled with the model's value, when the
 * tool's input schema is a flat object of primitives; else one `input` field of JSON text
 * (checked against the tool's full schema where the run runs). A question asks its answer:
 * its fields when its answer schema is a flat object, one `answer` field when it is a
 * primitive, else `answer` as JSON text.
 */
export function elicitationFor(
  request: ApprovalRequest,
  inputSchema: Record<string, unknown> | undefined,
  problem?: string,
): { form: ElicitationForm; shape: FormShape } {
  const before = problem ? `${problem}\n\n` : '';
  if (request.kind === 'question' && request.question)
    return questionForm(`${before}${request.question.prompt}`, request.question.answerSchema);
  return approvalForm(
    `${before}Approve the call of the tool "${request.tool}" in ${request.step || 'the run'}? Its input: ${JSON.stringify(request.input)}`,
    request.input,
    inputSchema,
  );
}

/** A question's form: its flat fields, one primitive `answer` field, or `answer` as JSON text. */
function questionForm(
  message: string,
  schema: Record<string, unknown>,
): { form: ElicitationForm; shape: FormShape } {
  const flat = flatFields(schema);
  if (flat && !(APPROVE in flat.fields))
    return {
      form: { message, requestedSchema: objectSchema(flat.fields, flat.required) },
      shape: { kind: 'question', answer: 'fields', answerFields: Object.keys(flat.fields) },
    };
  const field = primitiveField(schema);
  if (field)
    return {
      form: { message, requestedSchema: objectSchema({ [ANSWER]: field }, [ANSWER]) },
      shape: { kind: 'question', answer: 'field', answerFields: [ANSWER] },
    };
  const json = {
    type: 'string',
    title: 'Answer (JSON)',
    description: `A JSON value that fits this schema: ${JSON.stringify(schema)}`,
  };
  return {
    form: { message, requestedSchema: objectSchema({ [ANSWER]: json }, [ANSWER]) },
    shape: { kind: 'question', answer: 'json', answerFields: [ANSWER] },
  };
}

/**
 * An approval's form: `approve`, `reason`, and the input to edit (its flat fields filled
 * with the model's values, or one JSON text field; none when a secret was redacted out of it).
 */
function approvalForm(
  message: string,
  input: unknown,
  inputSchema: Record<string, unknown> | undefined,
): { form: ElicitationForm; shape: FormShape } {
  const base: Record<string, Record<string, unknown>> = {
    [APPROVE]: { type: 'boolean', title: 'Approve', default: true },
    [REASON]: { type: 'string', title: 'Reason (told to the model when denied)' },
  };
  // an input with a secret redacted out cannot be edited here: the edit would carry the mark
  if (JSON.stringify(input ?? null).includes(REDACTED))
    return {
      form: { message, requestedSchema: objectSchema(base, [APPROVE]) },
      shape: { kind: 'approval', edit: 'none', editFields: [], input },
    };
  const flat = flatFields(inputSchema);
  const isRecord = typeof input === 'object' && input !== null && !Array.isArray(input);
  if (flat && isRecord && !Object.keys(flat.fields).some((name) => name in base)) {
    const fields = Object.fromEntries(
      Object.entries(flat.fields).map(([name, field]) => {
        const value = (input as Record<string, unknown>)[name];
        return [name, value === undefined ? field : { ...field, default: value }];
      }),
    );
    return {
      form: { message, requestedSchema: objectSchema({ ...base, ...fields }, [APPROVE]) },
      shape: { kind: 'approval', edit: 'fields', editFields: Object.keys(fields), input },
    };
  }
  const json = {
    type: 'string',
    title: 'Input (JSON)',
    description: `The input the call runs with, as JSON${inputSchema ? `; it must fit ${JSON.stringify(inputSchema)}` : ''}.`,
    default: JSON.stringify(input),
  };
  return {
    form: { message, requestedSchema: objectSchema({ ...base, [INPUT_JSON]: json }, [APPROVE]) },
    shape: { kind: 'approval', edit: 'json', editFields: [INPUT_JSON], input },
  };
}

function objectSchema(
  properties: Record<string, Record<string, unknown>>,
  required: string[],
): ElicitationForm['requestedSchema'] {
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/**
 * The answer a reply gives, as a host takes it (`RunHost.answer`), or a problem to show in
 * the form asked again (JSON text that does not parse), or undefined when the reply
 * answers nothing (`cancel`: the call still waits for another source).
 */
export function answerOfReply(
  key: string,
  shape: FormShape,
  reply: ElicitationReply,
  client: string,
): { answer: ApprovalAnswerInput } | { problem: string } | undefined {
  const from = { key, source: 'mcp', answeredBy: client };
  if (reply.action === 'cancel') return undefined;
  if (reply.action === 'decline')
    return {
      answer: { ...from, approved: false, reason: `declined by the MCP client "${client}"` },
    };
  const content = reply.content ?? {};
  if (shape.kind === 'question') {
    if (shape.answer === 'fields') return { answer: { ...from, approved: false, output: content } };
    const value = content[ANSWER];
    if (shape.answer === 'field') return { answer: { ...from, approved: false, output: value } };
    const parsed = parseJson(value);
    if ('problem' in parsed) return { problem: `june: the answer is not JSON: ${parsed.problem}` };
    return { answer: { ...from, approved: false, output: parsed.value } };
  }
  if (content[APPROVE] === false) {
    const reason = typeof content[REASON] === 'string' ? content[REASON].trim() : '';
    return { answer: { ...from, approved: false, ...(reason ? { reason } : {}) } };
  }
  let input: unknown;
  if (shape.edit === 'fields') {
    input = { ...(shape.input as Record<string, unknown>) };
    for (const name of shape.editFields)
      if (content[name] !== undefined) (input as Record<string, unknown>)[name] = content[name];
  } else if (shape.edit === 'json' && content[INPUT_JSON] !== undefined) {
    const parsed = parseJson(content[INPUT_JSON]);
    if ('problem' in parsed)
      return { problem: `june: the edited input is not JSON: ${parsed.problem}` };
    input = parsed.value;
  }
  const edited = input !== undefined && JSON.stringify(input) !== JSON.stringify(shape.input);
  return { answer: { ...from, approved: true, ...(edited ? { input } : {}) } };
}

function parseJson(text: unknown): { value: unknown } | { problem: string } {
  if (typeof text !== 'string') return { problem: 'no text was given' };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
