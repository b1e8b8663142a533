import { JuneError } from '../errors/june-error.js';

/**
 * A request Studio refuses before it changes anything: from another site or without the
 * token (`studio-request-refused`, 403 or 401), a malformed body (`studio-request-invalid`,
 * 400), a run it does not have (`studio-run-missing`, 404), a start with the id of a run it
 * has (`studio-run-exists`, 409), or an answer to no approval the
 * run waits for (`studio-approval-unknown`, 409), an answer to a stopped run another process
 * runs without taking Studio's answers (`studio-run-owned`, 409), or a run folder it does not trust
 * (`studio-run-folder-unsafe`, 403: a link, another user's, or writable by others). The
 * workbench's requests add: a workflow id its catalog did not find (`studio-workflow-unknown`,
 * 404), props that do not fit the workflow's schema (`studio-props-invalid`, 400), a model
 * choice it cannot use (`studio-model-invalid`, 400), and a run whose `june run` stopped
 * before it began (`studio-run-start-failed`, 422, with its `june:` message), and a start while
 * the most processes it runs at once are running (`studio-runs-busy`, 429), and a replay of a
 * run whose recording is not complete (`studio-rerun-incomplete`, 409: it did not end succeeded).
 * A fork adds: a record the run does not have (`studio-fork-record-unknown`, 404) and a change
 * that does not fit the record, or props recorded redacted (`studio-fork-invalid`, 400). `status` is the HTTP status to answer
 * with; the message starts with `june: `.
 */
export class StudioRequestError extends JuneError {
  constructor(
    code:
      | 'studio-request-refused'
      | 'studio-request-invalid'
      | 'studio-run-missing'
      | 'studio-run-exists'
      | 'studio-approval-unknown'
      | 'studio-approval-invalid'
      | 'studio-run-owned'
      | 'studio-run-folder-unsafe'
      | 'studio-workflow-unknown'
      | 'studio-props-invalid'
      | 'studio-model-invalid'
      | 'studio-run-start-failed'
      | 'studio-runs-busy'
      | 'studio-rerun-incomplete'
      | 'studio-fork-record-unknown'
      | 'studio-fork-invalid',
    message: string,
    readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429,
    /**
     * For `studio-approval-invalid`: the run's own code for the refused answer
     * (`approval-input-invalid`, `approval-output-invalid`, `approval-answer-invalid`,
     * `question-answer-missing`); for `studio-approval-unknown`: why the call does not wait
     * (`answered`, `withdrawn`, `unknown`); for an entry point that tells it in its own terms.
     */
    readonly refusal?: string,
  ) {
    super(code, message, { blame: 'system' });
  }
}

/**
 * The refusal of a start with the id of a run the host has: nothing starts, and the run of
 * that id goes on as it was (`studio-run-exists`, 409).
 */
export function runExists(runId: string): StudioRequestError {
  return new StudioRequestError(
    'studio-run-exists',
    `june: there is a run "${runId}" already; a run id names one run. Give another id, or none for a new one.`,
    409,
  );
}
