// What every contender runs. The numbers, prompts and the one tool body are shared, so the
// only thing that differs between contenders is the framework around the same model calls.

/** (a) one agent, one step: the model calls `lookup` this many times (one call a turn), then answers. */
export const TOOL_CALLS = 5;
/** (b) steps of one agent sharing its conversation; each is one model turn answering text. */
export const STEPS = 20;
/** (c) times the model calls the composite tool `research` (one call a turn); each runs a nested one-step agent. */
export const COMPOSITE_CALLS = 10;
/** (d) runs of workload (a) started at once in one process. */
export const CONCURRENT_RUNS = 1000;
/** A loop limit high enough for every workload (the frameworks' defaults differ: 5, 10, 20). */
export const MAX_TURNS = 30;

export const INSTRUCTIONS = 'You are a benchmark agent. Use the tools when asked.';
export const PROMPT_A = 'Look up five numbers.';
export const stepPrompt = (i: number) => `Step ${i + 1}: answer briefly.`;
export const PROMPT_C = 'Research ten questions, one at a time.';
export const researchPrompt = (question: string) => `Research: ${question}`;

export const LOOKUP = { name: 'lookup', description: 'Looks up a number.' } as const;
export const RESEARCH = {
  name: 'research',
  description: 'Researches one question with a nested agent.',
} as const;

/** The input the model sends to `research` on its n-th call. */
export const researchInput = (n: number) => ({ question: `question ${n}` });

/**
 * Stops runs in the middle of their tool loop so memory can be read while all of them are in
 * flight (workload d). `arrive()` resolves when `release()` is called.
 */
export class Gate {
  private arrived = 0;
  private readonly all: Promise<void>;
  private onAll!: () => void;
  private readonly open: Promise<void>;
  private onOpen!: () => void;

  constructor(readonly expected: number) {
    this.all = new Promise((resolve) => (this.onAll = resolve));
    this.open = new Promise((resolve) => (this.onOpen = resolve));
  }

  arrive(): Promise<void> {
    if (++this.arrived === this.expected) this.onAll();
    return this.open;
  }

  /** Resolves once `expected` runs have arrived. */
  allArrived(): Promise<void> {
    return this.all;
  }

  release(): void {
    this.onOpen();
  }
}

let gate: Gate | undefined;
/** The tool call at which a gated run waits (0-based): mid-loop, with history already grown. */
export const GATE_AT_CALL = 2;

/** Installs (or removes) the gate that `lookup` waits on. */
export function setGate(next: Gate | undefined): void {
  gate = next;
}

let executions = 0;
/** How many times `lookup` ran (to check that a contender really did the work). */
export function lookupExecutions(): number {
  return executions;
}

/** The body of the `lookup` tool every contender declares. */
export async function lookup(input: { n: number }): Promise<{ value: number }> {
  executions++;
  if (gate && input.n === GATE_AT_CALL) await gate.arrive();
  return { value: input.n * 2 };
}
