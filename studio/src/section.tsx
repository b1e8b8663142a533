import type { ComponentChildren } from 'preact';

/** A titled part of the inspector. */
export function Section({
  title,
  children,
  testId,
}: {
  title: string;
  children: ComponentChildren;
  testId?: string;
}) {
  return (
    <section class="section" data-testid={testId} aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/** Label/value rows; rows whose value is `undefined`, `null` or `''` are left out. */
export function Facts({ rows }: { rows: Array<[string, ComponentChildren]> }) {
  const shown = rows.filter(([, value]) => value !== undefined && value !== null && value !== '');
  if (shown.length === 0) return null;
  return (
    <dl class="facts">
      {shown.map(([label, value]) => (
        <div key={label} class="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
