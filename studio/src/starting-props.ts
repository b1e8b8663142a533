import { previewProps } from '../../src/workflows/preview-props.js';
import { sampleInput } from '../../src/workflows/sample-input.js';
import type { WorkflowEntry } from '../../src/workflows/workbench-api.js';

/**
 * The props the workbench starts from, so a first Start fits the workflow's props schema:
 * every prop the schema gives a default, a sample of its required props (their defaults, an
 * enum's first choice, an empty value of their type: `sampleInput`), then the props the map
 * was resolved with, and
 * for a chat workflow (a `chat` prop) whose sample has no `messages` an empty conversation,
 * as the map draws it (`previewProps`). Without a schema, the map's props.
 *
 * @example
 * ```ts
 * startingProps({ props: {}, propsSchema: { type: 'object', properties: { chat: {} }, required: ['chat'] } });
 * // { chat: { messages: [], history: [] } }
 * ```
 */
export function startingProps(
  entry: Pick<WorkflowEntry, 'props' | 'propsSchema'>,
): Record<string, unknown> {
  const sample = entry.propsSchema ? sampleInput(entry.propsSchema) : {};
  const base =
    typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? sample : {};
  const props = { ...withDefaults(entry.propsSchema), ...base, ...entry.props };
  // a sampled `chat` without turns (from a schema such as `z.any()`) is no conversation
  const chat = props.chat as { messages?: unknown } | undefined;
  if (!Object.hasOwn(entry.props, 'chat') && !Array.isArray(chat?.messages)) delete props.chat;
  return previewProps(props, entry.propsSchema);
}

/** The props whose schema has a `default`, with it (an optional prop's default shows in the form). */
function withDefaults(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(properties)
      .filter(
        ([, property]) =>
          typeof property === 'object' && property !== null && 'default' in property,
      )
      .map(([name, property]) => [name, (property as { default: unknown }).default]),
  );
}
