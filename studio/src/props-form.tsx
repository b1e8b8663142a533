import { useState } from 'preact/hooks';

type Schema = Record<string, unknown>;

/**
 * The props a workflow's map is resolved for: a field per property of its `propsSchema`
 * (a checkbox for a boolean, a choice for an enum, a box for a string or number), or, when
 * the workflow exports no schema or a property is anything else, the props as JSON.
 */
export function PropsForm(props: {
  schema?: Schema;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
}) {
  const { schema, value, onChange } = props;
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  const simple = names.length > 0 && names.every((name) => fieldKind(properties[name]!) !== 'json');
  if (!simple) return <JsonProps value={value} onChange={onChange} />;
  const set = (name: string, next: unknown) => {
    const copy = { ...value };
    if (next === undefined) delete copy[name];
    else copy[name] = next;
    onChange(copy);
  };
  return (
    <form class="props-form" data-testid="props-form" onSubmit={(event) => event.preventDefault()}>
      {names.map((name) => (
        <Field
          key={name}
          name={name}
          schema={properties[name]!}
          value={value[name]}
          onChange={(next) => set(name, next)}
        />
      ))}
    </form>
  );
}

function Field(props: {
  name: string;
  schema: Schema;
  value: unknown;
  onChange(value: unknown): void;
}) {
  const { name, schema, value, onChange } = props;
  const kind = fieldKind(schema);
  if (kind === 'boolean')
    return (
      <label class="props-field">
        <input
          type="checkbox"
          name={name}
          checked={value === true}
          onChange={(event) => onChange((event.currentTarget as HTMLInputElement).checked)}
        />{' '}
        <span class="mono">{name}</span>
      </label>
    );
  if (kind === 'enum')
    return (
      <label class="props-field">
        <span class="mono">{name}</span>{' '}
        <select
          name={name}
          value={value === undefined ? '' : String(value)}
          onChange={(event) => {
            const text = (event.currentTarget as HTMLSelectElement).value;
            onChange(text === '' ? undefined : text);
          }}
        >
          <option value="">(default)</option>
          {(schema.enum as unknown[]).map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      </label>
    );
  return (
    <label class="props-field">
      <span class="mono">{name}</span>{' '}
      <input
        name={name}
        inputMode={kind === 'number' ? 'decimal' : 'text'}
        value={value === undefined ? '' : String(value)}
        onChange={(event) => {
          const text = (event.currentTarget as HTMLInputElement).value;
          onChange(text === '' ? undefined : kind === 'number' ? Number(text) : text);
        }}
      />
    </label>
  );
}

function JsonProps(props: {
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
}) {
  const [text, setText] = useState(JSON.stringify(props.value));
  const [problem, setProblem] = useState<string>();
  const apply = () => {
    try {
      const parsed: unknown = JSON.parse(text || '{}');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('props are a JSON object, such as {"writable": true}');
      setProblem(undefined);
      props.onChange(parsed as Record<string, unknown>);
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <form
      class="props-form"
      data-testid="props-json"
      onSubmit={(event) => (event.preventDefault(), apply())}
    >
      <input
        class="mono props-json"
        name="props"
        value={text}
        onInput={(event) => setText((event.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit">Resolve</button>
      {problem && <span class="notice-error small">{problem}</span>}
    </form>
  );
}

function fieldKind(schema: Schema): 'boolean' | 'enum' | 'number' | 'string' | 'json' {
  if (Array.isArray(schema.enum)) return 'enum';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'number' || schema.type === 'integer') return 'number';
  if (schema.type === 'string') return 'string';
  return 'json';
}
