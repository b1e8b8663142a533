import { useState } from 'preact/hooks';
import { fieldOf, typeOf, type Schema } from './json-schema.js';

/**
 * A value edited in a form built from its JSON Schema (a tool's output schema, a question's
 * answer schema): an object is one field per property, anything else one field; a field is a
 * choice for an `enum`, a checkbox for a `boolean`, a number box, a text box, or JSON for
 * anything else (an array, a nested object). The server checks the value against the schema
 * again: what does not fit is refused with a `june:` message naming it.
 */
export function SchemaValue(props: {
  schema: Record<string, unknown>;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const schema = props.schema as Schema;
  if (typeOf(schema) === 'object' && schema.properties) {
    const value =
      typeof props.value === 'object' && props.value !== null && !Array.isArray(props.value)
        ? (props.value as Record<string, unknown>)
        : {};
    return (
      <fieldset class="schema-value" data-testid="fork-value-form">
        <legend>The new value</legend>
        {Object.entries(schema.properties).map(([name, property]) => (
          <ValueField
            key={name}
            label={`${name}${(schema.required ?? []).includes(name) ? '' : ' (optional)'}`}
            schema={property}
            value={value[name]}
            onChange={(next) => {
              const copy = { ...value };
              if (next === undefined) delete copy[name];
              else copy[name] = next;
              props.onChange(copy);
            }}
          />
        ))}
      </fieldset>
    );
  }
  return (
    <fieldset class="schema-value" data-testid="fork-value-form">
      <legend>The new value</legend>
      <ValueField label="Value" schema={schema} value={props.value} onChange={props.onChange} />
    </fieldset>
  );
}

function ValueField(props: {
  label: string;
  schema: Schema;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const { label, schema } = props;
  const [problem, setProblem] = useState<string>();
  return (
    <label class="schema-field">
      <span class="mono">{label}</span> <Control {...props} setProblem={setProblem} />
      {schema.description && <span class="muted small">{schema.description}</span>}
      {problem && <span class="notice-error small">{problem}</span>}
    </label>
  );
}

/** One field's control, by its schema's kind. */
function Control(props: {
  label: string;
  schema: Schema;
  value: unknown;
  onChange(value: unknown): void;
  setProblem(problem: string | undefined): void;
}) {
  const { label, schema, value, onChange } = props;
  const kind = fieldOf(schema);
  if (kind === 'choice')
    return (
      <select
        aria-label={label}
        value={String(schema.enum!.indexOf(value))}
        onChange={(event) => onChange(schema.enum![Number(event.currentTarget.value)])}
      >
        {value === undefined && <option value="-1">(none)</option>}
        {schema.enum!.map((option, i) => (
          <option key={i} value={String(i)}>
            {typeof option === 'string' ? option : JSON.stringify(option)}
          </option>
        ))}
      </select>
    );
  if (kind === 'boolean')
    return (
      <input
        type="checkbox"
        aria-label={label}
        checked={value === true}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
    );
  if (kind === 'number')
    return (
      <input
        class="wb-input"
        aria-label={label}
        type="number"
        step="any"
        value={value === undefined ? '' : String(value)}
        onInput={(event) => {
          const typed = event.currentTarget.value;
          onChange(typed.trim() === '' ? undefined : Number(typed));
        }}
      />
    );
  if (kind === 'text')
    return (
      <input
        class="wb-input"
        aria-label={label}
        type="text"
        value={value === undefined ? '' : String(value)}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
    );
  return <JsonControl {...props} />;
}

/** A value the form has no field for (an array, a nested object), as JSON. */
function JsonControl(props: {
  label: string;
  value: unknown;
  onChange(value: unknown): void;
  setProblem(problem: string | undefined): void;
}) {
  const [text, setText] = useState(() =>
    props.value === undefined ? '' : JSON.stringify(props.value, null, 2),
  );
  return (
    <textarea
      class="wb-input mono"
      aria-label={props.label}
      rows={3}
      placeholder="JSON"
      value={text}
      onInput={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        try {
          props.onChange(typed.trim() === '' ? undefined : (JSON.parse(typed) as unknown));
          props.setProblem(undefined);
        } catch {
          props.setProblem('This is not JSON yet.');
        }
      }}
    />
  );
}
