import type { RunLogEvent } from '../events/run-event.js';

/**
 * What a progress notification says of a run's event, if anything: a step started or
 * ended, a request waiting (an approval or a question, with its call's key), an answer
 * given (and through which source); undefined for any other event.
 */
export function progressOf(event: RunLogEvent): string | undefined {
  switch (event.type) {
    case 'step-start':
      return `step ${event.step} started`;
    case 'step-finish':
      return `step ${event.step} ${event.status}`;
    case 'approval-request':
      return event.request.kind === 'question'
        ? `waiting for an answer: ${event.request.question?.prompt ?? event.request.tool} (call ${event.request.key ?? event.request.id})`
        : `waiting for approval of ${event.request.tool} (call ${event.request.key ?? event.request.id})`;
    case 'approval-response':
      return `${event.approved ? 'approved' : 'answered'}${event.source ? ` through ${event.source}` : ''}`;
    default:
      return undefined;
  }
}
