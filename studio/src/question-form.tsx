import { useState } from 'preact/hooks';
import { fieldOf, typeOf, type Field, type Schema } from './json-schema.js';

function valueOf(field: Field, schema: Schema, text: string): unknown {
  if (field === 'boolean') return text === 'true';
  if (field === 'choice') return schema.enum![Number(text)];
  if (text.trim() === '') return field === 'text' ? '' : undefined;
  if (field === 'number') return Number(text);
  if (field === 'json') return JSON.parse(text) as unknown;
  return text;
}

/** One field's control, labelled `label`; `text` is its value as typed (a choice: its index). */
function FieldInput(props: {
  label: string;
  field: Field;
  schema: Schema;
  text: string;
  set: (text: string) => void;
}) {
  const { label, field, schema, text, set } = props;
  const onInput = (event: Event) =>
    set((event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement).value);
  if (field === 'choice')
    return (
      <select aria-label={label} value={text} onChange={onInput}>
        {schema.enum!.map((value, i) => (
          <option key={i} value={String(i)}>
            {typeof value === 'string' ? value : JSON.stringify(value)}
          </option>
        ))}
      </select>
    );
  if (field === 'boolean')
    return (
      <input
        type="checkbox"
        aria-label={label}
        checked={text === 'true'}
        onChange={(event) => set(String((event.target as HTMLInputElement).checked))}
      />
    );
  if (field === 'json')
    return (
      <textarea aria-label={label} class="mono" placeholder="JSON" value={text} onInput={onInput} />
    );
  if (field === 'number')
    return <input aria-label={label} type="number" step="any" value={text} onInput={onInput} />;
  return <input aria-label={label} type="text" value={text} onInput={onInput} />;
}

/** The first typed text of a field: a choice's first option, a yes/no's no, else empty. */
function startOf(field: Field): string {
  return field === 'choice' ? '0' : field === 'boolean' ? 'false' : '';
}

/**
 * The form that answers a question, built from its answer schema (JSON Schema draft-07): an
 * `enum` is a select, a `number`/`integer` a number field, a `boolean` a checkbox, a `string`
 * a text field; an `object` is one field per property (a property that is an array or object
 * itself, JSON), an optional one left empty left out; anything else one JSON textarea.
 * `send` gets the answer; the schema checks it on the server, whose `june:` message the card
 * shows, and the question stays.
 */
export function QuestionForm(props: {
  answerSchema: Record<string, unknown>;
  sending: boolean;
  send: (answer: unknown) => void;
}) {
  const schema = props.answerSchema as Schema;
  const form = typeOf(schema) === 'object' && schema.properties !== undefined;
  const fields: Array<{ name?: string; label: string; schema: Schema; field: Field }> = form
    ? Object.entries(schema.properties!).map(([name, property]) => ({
        name,
        label: `${property.title ?? property.description ?? name}${(schema.required ?? []).includes(name) ? '' : ' (optional)'}`,
        schema: property,
        field: fieldOf(property),
      }))
    : [{ label: 'Answer', schema, field: fieldOf(schema) }];
  const [texts, setTexts] = useState<string[]>(() => fields.map((field) => startOf(field.field)));
  const [problem, setProblem] = useState<string | undefined>();
  const submit = () => {
    try {
      const values = fields.map((field, i) => valueOf(field.field, field.schema, texts[i]!));
      const answer = form
        ? Object.fromEntries(
            fields
              .map((field, i) => [field.name!, values[i]] as const)
              .filter(([name, value]) => value !== undefined || schema.required?.includes(name)),
          )
        : values[0];
      setProblem(undefined);
      props.send(answer);
    } catch {
      setProblem('A JSON field is not JSON; check quotes and brackets.');
    }
  };
  return (
    <form
      class="question-form"
      data-testid="question-form"
      onSubmit={(event) => (event.preventDefault(), submit())}
    >
      {fields.map((field, i) => (
        <label key={field.label} class="question-field">
          <span class="small">{field.label}</span>
          <FieldInput
            label={field.label}
            field={field.field}
            schema={field.schema}
            text={texts[i]!}
            set={(text) => setTexts((now) => now.map((old, j) => (j === i ? text : old)))}
          />
        </label>
      ))}
      {problem && <p class="notice notice-error small">{problem}</p>}
      <button class="approve" type="submit" disabled={props.sending}>
        Send answer
      </button>
    </form>
  );
}
