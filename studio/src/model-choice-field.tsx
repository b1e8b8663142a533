import type { ModelChoice } from '../../src/workflows/workbench-api.js';

/** How the model answers, as the start form holds it before it is a `ModelChoice`. */
export interface ModelChoiceDraft {
  kind: ModelChoice['kind'];
  /** The script file's path from the project root, for `script`. */
  path: string;
  /** The recorded run's id, for `replay`. */
  runId: string;
}

/** The draft as a request's `ModelChoice`. */
export function modelChoiceOf(draft: ModelChoiceDraft): ModelChoice {
  if (draft.kind === 'script') return { kind: 'script', path: draft.path.trim() };
  if (draft.kind === 'replay') return { kind: 'replay', runId: draft.runId.trim() };
  return { kind: 'provider' };
}

/** Picks how the model answers: a script file of the project, a recorded run, or the provider. */
export function ModelChoiceField(props: {
  value: ModelChoiceDraft;
  onChange(value: ModelChoiceDraft): void;
  /** Leaves out "a recorded run" (a fork's live part is answered by a script or the provider). */
  noReplay?: boolean;
}) {
  const { value, onChange } = props;
  const pick = (kind: ModelChoice['kind']) => onChange({ ...value, kind });
  return (
    <fieldset class="wb-model" data-testid="model-choice">
      <legend>The model answers from</legend>
      <label>
        <input
          type="radio"
          name="model"
          checked={value.kind === 'script'}
          onChange={() => pick('script')}
        />{' '}
        a script file
      </label>
      {value.kind === 'script' && (
        <input
          class="wb-input"
          aria-label="Script file"
          placeholder="workflows/release.script.json"
          value={value.path}
          onInput={(event) => onChange({ ...value, path: event.currentTarget.value })}
        />
      )}
      {!props.noReplay && (
        <label>
          <input
            type="radio"
            name="model"
            checked={value.kind === 'replay'}
            onChange={() => pick('replay')}
          />{' '}
          a recorded run
        </label>
      )}
      {!props.noReplay && value.kind === 'replay' && (
        <input
          class="wb-input"
          aria-label="Recorded run id"
          placeholder="20261130-120301-3fa94c1e27b0"
          value={value.runId}
          onInput={(event) => onChange({ ...value, runId: event.currentTarget.value })}
        />
      )}
      <label>
        <input
          type="radio"
          name="model"
          checked={value.kind === 'provider'}
          onChange={() => pick('provider')}
        />{' '}
        the configured provider
      </label>
    </fieldset>
  );
}
