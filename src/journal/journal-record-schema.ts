import { z } from 'zod';
import { journalRecordTypes } from './journal-record.js';

// Each field's message completes `its "<field>" is ...`: what the field must be.
const text = () => z.string({ error: 'not a string' });
const time = () => z.string({ error: 'not an ISO 8601 string' });
const count = () => z.number({ error: 'not a number' });
const flag = () => z.boolean({ error: 'not true or false' });

/** Where a call happened ({@link JournalPlace}): the step path and the composite call ids. */
const place = {
  step: text(),
  calls: z.array(z.string(), { error: 'not a list of call ids' }).optional(),
};

/** A {@link RecordedError}: an error as plain data. */
const recordedErrorSchema = z.looseObject(
  {
    name: text(),
    message: text(),
    code: text().optional(),
    blame: z
      .enum(['workflow', 'model', 'system'], { error: 'not workflow, model or system' })
      .optional(),
  },
  { error: 'not an error ({ name, message })' },
);

const headerSchema = z.looseObject({
  type: z.literal('journal'),
  version: count(),
  runId: text(),
  workflow: text().optional(),
  props: z.record(z.string(), z.unknown(), { error: 'not an object' }).optional(),
  startedAt: time(),
  traceparent: text().optional(),
  // a fork's journal: where it was forked from
  forkedFrom: z
    .looseObject({ runId: text(), record: text() }, { error: 'not a fork lineage object' })
    .optional(),
  thread: z
    .looseObject(
      { id: text(), order: count(), agent: text().optional() },
      { error: 'not a thread' },
    )
    .optional(),
  // a fork of a thread's run: where its conversation starts
  threadFrom: z
    .looseObject(
      { id: text(), order: count(), agent: text().optional() },
      { error: 'not a thread' },
    )
    .optional(),
});

const modelCallSchema = z
  .looseObject({
    type: z.literal('model-call'),
    ...place,
    index: count(),
    mode: z.enum(['stream', 'generate'], { error: 'not stream or generate' }),
    requestHash: text(),
    request: z.unknown().optional(), // undefined is left out of JSON
    // version 3: the prompt starts with the first `messages` messages of an earlier request's
    promptBase: z.looseObject({ requestHash: text(), messages: count() }).optional(),
    // version 4: June's model-answer record (its content is read when the call is answered)
    answer: z.looseObject({}, { error: 'not a model answer object' }).optional(),
    // versions 1 to 3: the answer's AI SDK 6 parts or result, on the record itself
    parts: z.array(z.unknown(), { error: 'not a list of stream parts' }).optional(),
    result: z.looseObject({}, { error: 'not a result object' }).optional(),
    at: time(),
  })
  .refine(
    (record) =>
      record.answer !== undefined || record.parts !== undefined || record.result !== undefined,
    { message: 'it has none of "answer", "parts" and "result"' },
  );

/** A tool call's keys: `call` from version 2 on (a version 1 record gets it when upgraded). */
const toolCallKeys = { ...place, call: text().optional(), toolCallId: text() };

const toolCallSchema = z.looseObject({
  type: z.literal('tool-call'),
  ...toolCallKeys,
  tool: text(),
  input: z.unknown().optional(), // undefined is left out of JSON
  output: z.unknown().optional(), // undefined is left out of JSON
  error: recordedErrorSchema.optional(),
  at: time(),
});

/** What a question asked (`AskedQuestion`), on the request of a `<Question>`'s call. */
const askedQuestionSchema = z.looseObject(
  {
    prompt: text(),
    answerSchema: z.record(z.string(), z.unknown(), { error: 'not an object' }),
    timeoutMs: count().optional(),
  },
  { error: 'not a question ({ prompt, answerSchema })' },
);

const approvalRequestSchema = z.looseObject({
  type: z.literal('approval-request'),
  ...toolCallKeys,
  tool: text(),
  input: z.unknown().optional(), // undefined is left out of JSON
  question: askedQuestionSchema.optional(),
  guard: z.looseObject({ name: text(), declaration: text(), reason: text().optional() }).optional(),
  inputSchema: z.record(z.string(), z.unknown(), { error: 'not an object' }).optional(),
  outputSchema: z.record(z.string(), z.unknown(), { error: 'not an object' }).optional(),
  at: time(),
});

const approvalAnswerSchema = z.looseObject({
  type: z.literal('approval-answer'),
  ...toolCallKeys,
  approved: flag(),
  reason: text().optional(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  automatic: flag(),
  source: text().optional(),
  answeredBy: text().optional(),
  answeredAt: time().optional(),
  at: time(),
});

const resumeSchema = z.looseObject({
  type: z.literal('resume'),
  version: count().optional(),
  traceparent: text().optional(),
  at: time(),
});

const runFinishSchema = z.looseObject({
  type: z.literal('run-finish'),
  status: z.enum(['succeeded', 'failed', 'aborted'], {
    error: 'not succeeded, failed or aborted',
  }),
  error: recordedErrorSchema.optional(),
  conversation: z
    .looseObject(
      { agent: text(), messages: z.array(z.unknown(), { error: 'not a list of messages' }) },
      { error: 'not a conversation ({ agent, messages })' },
    )
    .optional(),
  at: time(),
});

/**
 * One journal line as it is stored (a {@link JournalRecord} of any version this June reads,
 * after its tagged values are revived: `{"$date"}`, `{"$bytes"}`, `{"$error"}`), by its
 * `type`. Fields a newer June adds are allowed. A version 1 record has no `call`, and a model
 * call of versions 1 to 3 has `parts` or `result` where version 4 has `answer` (see
 * `upgradeJournal`). Where a record stands (the header first, and only there) and whether
 * its version is read (`JOURNAL_VERSIONS`) are checked by `decodeJournal`.
 *
 * @example
 * ```ts
 * journalRecordSchema.safeParse({ type: 'resume', at: new Date().toISOString() }).success; // true
 * ```
 */
export const journalRecordSchema = z.discriminatedUnion('type', [
  headerSchema,
  modelCallSchema,
  toolCallSchema,
  approvalRequestSchema,
  approvalAnswerSchema,
  resumeSchema,
  runFinishSchema,
]);

/**
 * What is wrong with a parsed journal line, as the end of a sentence (`it has the type
 * "launch", not one of journal, ...`, `its "step" is not a string`), or `undefined` for a
 * record {@link journalRecordSchema} accepts.
 *
 * @example
 * ```ts
 * journalRecordProblem({ type: 'resume' }); // 'its "at" is not an ISO 8601 string'
 * ```
 */
export function journalRecordProblem(value: unknown): string | undefined {
  const result = journalRecordSchema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  if (issue.path.length === 0)
    return issue.code === 'custom' ? issue.message : 'it is not a JSON object';
  if (issue.code === 'invalid_union' && issue.path[0] === 'type') {
    const type = (value as { type?: unknown }).type;
    return `it has the type ${JSON.stringify(type)}, not one of ${journalRecordTypes.join(', ')}`;
  }
  return `its "${issue.path.join('.')}" is ${issue.message}`;
}
