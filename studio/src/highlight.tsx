/**
 * `text` with each occurrence of `query` (case-insensitive) in a `<mark>`; plain text nodes
 * only, so whatever the text holds stays text.
 */
export function Highlight({ text, query }: { text: string; query: string }) {
  const needle = query.trim().toLowerCase();
  if (needle === '') return <>{text}</>;
  const lower = text.toLowerCase();
  const parts: Array<string | { mark: string }> = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push({ mark: text.slice(at, at + needle.length) });
    from = at + needle.length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? part : <mark key={index}>{part.mark}</mark>,
      )}
    </>
  );
}
