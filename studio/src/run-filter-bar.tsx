import type { RunListEntry } from '../../src/host/run-list.js';
import { isUnreadable } from '../../src/host/run-list.js';
import { isFiltering, NO_FILTER, type RunFilter } from './run-filter.js';

const STATUSES = ['running', 'waiting', 'succeeded', 'failed', 'aborted'];

/** Changes one field of the filter. */
type SetField = <K extends keyof RunFilter>(key: K, value: RunFilter[K]) => void;

/** The run list's filters: workflow, thread (when a run has one), status, waiting for approval, failures inside, dates. */
export function RunFilterBar(props: {
  runs: RunListEntry[];
  filter: RunFilter;
  shown: number;
  onChange(filter: RunFilter): void;
}) {
  const { runs, filter, shown, onChange } = props;
  const set: SetField = (key, value) => onChange({ ...filter, [key]: value });
  const workflows = [
    ...new Set(runs.flatMap((run) => (!isUnreadable(run) && run.workflow ? [run.workflow] : []))),
  ].sort();
  const threads = [
    ...new Set(runs.flatMap((run) => (!isUnreadable(run) && run.thread ? [run.thread.id] : []))),
  ].sort();
  const fields = { filter, set };
  return (
    <form
      class="run-filters"
      data-testid="run-filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <Choice {...fields} field="workflow" label="Workflow" options={workflows} />
      {threads.length > 0 && <Choice {...fields} field="thread" label="Thread" options={threads} />}
      <Choice {...fields} field="status" label="Status" options={STATUSES} />
      <Check {...fields} field="waiting" label="Waiting for approval" />
      <Check {...fields} field="failures" label="Failures inside" />
      <Day {...fields} field="from" label="From" />
      <Day {...fields} field="to" label="To" />
      {isFiltering(filter) && (
        <>
          <span class="muted" data-testid="filter-count">
            {shown} of {runs.length} runs
          </span>
          <button type="button" onClick={() => onChange(NO_FILTER)}>
            Clear
          </button>
        </>
      )}
    </form>
  );
}

interface FieldProps<K extends keyof RunFilter> {
  filter: RunFilter;
  set: SetField;
  field: K;
  label: string;
}

function Choice(props: FieldProps<'workflow' | 'thread' | 'status'> & { options: string[] }) {
  const { filter, set, field, label, options } = props;
  return (
    <label>
      {label}{' '}
      <select
        data-testid={`filter-${field}`}
        value={filter[field]}
        onChange={(event) => set(field, event.currentTarget.value)}
      >
        <option value="">all</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

function Check({ filter, set, field, label }: FieldProps<'waiting' | 'failures'>) {
  return (
    <label class="toggle-filter">
      <input
        type="checkbox"
        data-testid={`filter-${field}`}
        checked={filter[field]}
        onChange={(event) => set(field, event.currentTarget.checked)}
      />
      {label}
    </label>
  );
}

function Day({ filter, set, field, label }: FieldProps<'from' | 'to'>) {
  return (
    <label>
      {label}{' '}
      <input
        type="date"
        data-testid={`filter-${field}`}
        value={filter[field]}
        onInput={(event) => set(field, event.currentTarget.value)}
      />
    </label>
  );
}
