import { useEffect, useState } from 'preact/hooks';
import { isUnreadable, type RunListEntry } from '../../src/host/run-list.js';
import type { WaitingApproval } from '../../src/host/waiting-approvals.js';
import { fetchRuns, listenToRuns } from './api.js';
import { fetchApprovals, sendAnswer } from './approvals-api.js';

/**
 * The approvals a run waits for while `active`, each with Approve and Deny: how a tried
 * tool's approval is answered in its dialog. It follows the live channel and asks for the
 * run's approvals only when the run's file says it waits for some (`pendingApprovals`), so
 * nothing is asked of a run that does not exist yet.
 */
export function WaitingCalls(props: { runId: string; active: boolean }) {
  const [waiting, setWaiting] = useState<WaitingApproval[]>([]);
  useEffect(() => {
    if (!props.active) return setWaiting([]);
    let stopped = false;
    const look = (run: RunListEntry | undefined) => {
      if (!run || run.runId !== props.runId) return;
      if (isUnreadable(run) || !run.pendingApprovals) return setWaiting([]);
      fetchApprovals(props.runId).then(
        (found) => !stopped && setWaiting(found.waiting),
        () => {}, // answered meanwhile: the next event says so
      );
    };
    const stop = listenToRuns({
      onOpen: () =>
        void fetchRuns().then(
          (list) => !stopped && look(list.runs.find((run) => run.runId === props.runId)),
          () => {},
        ),
      onDown: () => {},
      onEvent: (event) => event.type === 'run' && look(event.run),
    });
    return () => {
      stopped = true;
      stop();
    };
  }, [props.runId, props.active]);
  return (
    <>
      {waiting.map((call) => (
        <div class="wb-approval" data-testid="tool-approval" key={call.key}>
          <span>
            <strong>{call.tool}</strong> needs your approval
          </span>
          <button
            class="wb-button"
            onClick={() => void sendAnswer(props.runId, { key: call.key, approved: true })}
          >
            Approve
          </button>
          <button
            class="wb-button wb-quiet"
            onClick={() =>
              void sendAnswer(props.runId, {
                key: call.key,
                approved: false,
                reason: 'denied in Studio',
              })
            }
          >
            Deny
          </button>
        </div>
      ))}
    </>
  );
}
