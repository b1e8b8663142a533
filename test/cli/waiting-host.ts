// A run host of RunControl's unit tests: its run waits for the call `a1` (no script answered
// it), and what cancels the run is recorded in `cancelled` (each cancel's reason).
import type { RunHost } from '../../src/host/run-host.js';

export function waitingHost(): { host: RunHost; cancelled: Array<string | undefined> } {
  const cancelled: Array<string | undefined> = [];
  const host = {
    cancel: async (_runId: string, options?: { reason?: string }) =>
      void cancelled.push(options?.reason),
    decisions: async (runId: string) => ({
      runId,
      state: 'live',
      resumable: false,
      waiting: [{ key: 'a1' }],
    }),
  } as unknown as RunHost;
  return { host, cancelled };
}
