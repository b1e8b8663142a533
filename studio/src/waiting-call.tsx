import { useEffect, useState } from 'preact/hooks';
import type { WaitingApproval } from '../../src/studio/waiting-approvals.js';
import { fetchApprovals, sendAnswer } from './approvals-api.js';

/**
 * The approvals a run waits for, polled every 250 ms while `active`, each with Approve and
 * Deny: how a tried tool's approval is answered in its dialog.
 */
export function WaitingCalls(props: { runId: string; active: boolean }) {
  const [waiting, setWaiting] = useState<WaitingApproval[]>([]);
  useEffect(() => {
    if (!props.active) return setWaiting([]);
    let stopped = false;
    const look = () =>
      fetchApprovals(props.runId)
        .then((found) => !stopped && setWaiting(found.waiting))
        .catch(() => {}); // no trace yet
    void look();
    const timer = setInterval(look, 250);
    return () => {
      stopped = true;
      clearInterval(timer);
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
