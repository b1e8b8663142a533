/**
 * The props a workflow is drawn and tried with in `june dev` (its capability map, a tool tried
 * from the workbench): `props` as given, plus an empty conversation,
 * `{ messages: [], history: [] }`, as its `chat` prop when its props schema has a `chat`
 * property and `props` gives none. A chat workflow is written for `june/web`'s chat handler,
 * which always passes `chat` (`({ chat }: { chat: ChatInput })`), so without one its
 * component would fail on `chat.history` before any agent resolves; with no turn yet,
 * `<ChatTurns>` makes no step, and the agents and their tools are what they are at the first
 * message. Starting a run takes the props as given.
 *
 * @param props the props of the page's form (a JSON object).
 * @param propsSchema the JSON Schema of the props the workflow exports (`WorkflowEntry.propsSchema`).
 * @example
 * ```ts
 * previewProps({}, { type: 'object', properties: { chat: {} } });
 * // { chat: { messages: [], history: [] } }
 * ```
 */
export function previewProps(
  props: Record<string, unknown>,
  propsSchema: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const properties = propsSchema?.properties;
  const takesChat = typeof properties === 'object' && properties !== null && 'chat' in properties;
  if (!takesChat || Object.hasOwn(props, 'chat')) return props;
  return { ...props, chat: { messages: [], history: [] } };
}
