/** A JSON Schema property as the props form reads it. */
interface PropSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
}

/**
 * The props of a workflow: one field per property of its props schema (a string, number,
 * boolean or choice of values), or a JSON text when it has no schema or a property is of
 * another kind. `onChange` gets the props, or the text's parse error.
 */
export function PropsField(props: {
  schema?: Record<string, unknown>;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown> | Error): void;
}) {
  const properties = (props.schema?.properties ?? {}) as Record<string, PropSchema>;
  const simple =
    props.schema !== undefined &&
    Object.values(properties).every((property) =>
      ['string', 'number', 'integer', 'boolean'].includes(String(property.type)),
    );
  if (!simple) return <JsonProps {...props} />;
  const required = new Set((props.schema?.required ?? []) as string[]);
  const set = (name: string, value: unknown) => props.onChange({ ...props.value, [name]: value });
  return (
    <fieldset class="wb-props" data-testid="props-form">
      <legend>Props</legend>
      {Object.entries(properties).map(([name, property]) => (
        <label key={name} class="wb-prop">
          <span>
            {name}
            {required.has(name) ? ' *' : ''}
          </span>
          <PropInput name={name} property={property} value={props.value[name]} set={set} />
        </label>
      ))}
    </fieldset>
  );
}

function JsonProps(props: {
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown> | Error): void;
}) {
  return (
    <label class="wb-props">
      <span>Props (JSON)</span>
      <textarea
        class="wb-json"
        aria-label="Props (JSON)"
        rows={5}
        defaultValue={JSON.stringify(props.value, null, 2)}
        onInput={(event) => {
          try {
            const parsed = JSON.parse(event.currentTarget.value || '{}') as unknown;
            props.onChange(
              typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
                ? (parsed as Record<string, unknown>)
                : new Error('Props are a JSON object.'),
            );
          } catch (error) {
            props.onChange(error as Error);
          }
        }}
      />
    </label>
  );
}

/** The input of one property: a checkbox, a choice of its values, or a text box. */
function PropInput(props: {
  name: string;
  property: PropSchema;
  value: unknown;
  set(name: string, value: unknown): void;
}) {
  const { name, property, set } = props;
  if (property.type === 'boolean')
    return (
      <input
        type="checkbox"
        aria-label={name}
        checked={props.value === true}
        onChange={(event) => set(name, event.currentTarget.checked)}
      />
    );
  if (property.enum)
    return (
      <select
        aria-label={name}
        value={String(props.value ?? '')}
        onChange={(event) => set(name, event.currentTarget.value)}
      >
        {property.enum.map((option) => (
          <option key={String(option)}>{String(option)}</option>
        ))}
      </select>
    );
  return (
    <input
      class="wb-input"
      aria-label={name}
      type="text"
      placeholder={property.description ?? ''}
      value={props.value === undefined ? '' : String(props.value)}
      onInput={(event) => {
        const text = event.currentTarget.value;
        set(name, property.type === 'string' ? text : text === '' ? undefined : Number(text));
      }}
    />
  );
}
