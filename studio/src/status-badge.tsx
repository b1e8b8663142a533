/** A run's or node's status as a coloured badge (`unreadable` for files Studio could not read). */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`status status-${status}`}>{status}</span>;
}
