// The shape every contender implements: one function per workload, each one complete run
// that resolves with the final answer (checked once before timing).

/** One run of each workload (see workloads.ts). */
export interface WorkloadRunners {
  /** (a) one agent, one step, TOOL_CALLS tool calls in its loop. */
  oneStep(): Promise<string>;
  /** (b) STEPS steps in one agent, sharing the conversation. */
  steps(): Promise<string>;
  /** (c) a composite tool (a nested one-step agent) called COMPOSITE_CALLS times. */
  composite(): Promise<string>;
  /** (f) STEPS steps in one agent sharing the conversation, each one tool call then an answer. */
  toolSteps(): Promise<string>;
}

/** A framework measured by the bench. */
export interface Contender {
  id: string;
  label: string;
  /** Packages whose versions the results name. */
  packages: string[];
  /** How this contender is wired, for the results. */
  note: string;
  /** Imports the framework and builds the runners; throws (with the reason) when it cannot run here. */
  load(): Promise<WorkloadRunners>;
}
