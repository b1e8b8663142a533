import { EventStream, type EventJoining } from '../events/event-stream.js';
import { isDelta, type DeltaEvent } from '../events/run-event-kinds.js';
import type { RunLogEvent } from '../events/run-event.js';
import type { RunConsumer } from '../events/run-consumer.js';
import { applyEvent } from '../events/apply-event.js';
import { liveTrace, type LiveTrace } from '../events/live-trace.js';
import type { Redactor } from '../redaction/redactor.js';
import type { EventInput } from './event-input.js';
import type { NodePlace } from './node-place.js';
import type { RunEngine } from './run-engine.js';
import { placeHash } from './place-hash.js';

/** The most streamed text held back while redacting (a word longer than this is let through), in characters. */
const MAX_HELD_TEXT = 4096;

/** What a {@link RunLog} is built from. */
export interface RunLogOptions {
  /** What the run keeps out of its events (the `redact` option and configured credentials). */
  redactor: Redactor;
  /** Follow every event in order (`RunOptions.consumers`). */
  consumers: readonly RunConsumer[];
  /** Is published every event, for followers in other processes. */
  engine: RunEngine;
}

/**
 * A run's log, the one record of what happened in it and its child runs: every event goes
 * through {@link emit}, which stamps its time, redacts it, applies it to the run's trace,
 * and hands it to each consumer, to the readers of `handle.events` and to the durable
 * engine. It also names the trace's nodes by their places and remembers which tool call node
 * each approval request concerns. Built once per run; the static check and `inspect()` have none.
 *
 * When nothing follows the run (no consumer, no durable engine, no reader of `events` yet),
 * `emit` only stamps the event's time and keeps it: redaction, the trace and the readers'
 * history are made from the kept events, in the order they came, the first time something
 * asks for them (`trace`, a reader of `events`, a consumer's outcome). That is the same work
 * on the same events in the same order, done later or never: a run whose trace and events
 * nobody reads spends nothing on them. Once asked, the log stays as it was without deferral.
 *
 * @example
 * ```ts
 * const log = new RunLog({ redactor, consumers, engine });
 * log.emit({ type: 'run-start', runId, nodeId: log.nodeId(undefined, 'run') });
 * ```
 */
export class RunLog {
  /**
   * Every event of the run, as consumers get it; readers late or early read it from the
   * start. A reader that starts makes the log follow the run from then on (see {@link RunLog}).
   */
  readonly events: AsyncIterable<RunLogEvent> = {
    [Symbol.asyncIterator]: () => {
      this.follow();
      return this.#events[Symbol.asyncIterator]();
    },
  };
  // made when first needed: a run that nothing follows holds only its kept events
  #eventStream: EventStream<RunLogEvent> | undefined;
  #liveTrace: LiveTrace | undefined;
  /** What the run keeps out of its events, trace snapshots, journal and errors. */
  readonly redactor: Redactor;
  /** The consumers following the run. */
  readonly consumers: readonly RunConsumer[];
  /** When the run was created, ms since the epoch (a trace asked for before its first event starts here). */
  readonly createdAt = Date.now();
  readonly #engine: RunEngine;
  #approvalPlaces: Map<string, NodePlace> | undefined;
  #approvalRecords: Map<string, string> | undefined;
  #heldText: Map<string, TextEvent> | undefined;
  /** How many nodes of each place (parent and name) the run has had. */
  readonly #places = new Map<string, number>();
  /** Set once the outermost run's `run-finish` is out: what comes later (work abandoned after an abort) is dropped. */
  #ended = false;
  /**
   * The events emitted and not yet published (their time stamped), while nothing follows the
   * run; `undefined` once something does (every event is then published as it comes).
   */
  #kept: KeptEvent[] | undefined;
  /** Set once the log is closed (its readers' stream is closed once every kept event is out). */
  #closed = false;

  constructor(options: RunLogOptions) {
    this.redactor = options.redactor;
    this.consumers = options.consumers;
    this.#engine = options.engine;
    if (this.consumers.length === 0 && !options.engine.follows) this.#kept = [];
  }

  get #events(): EventStream<RunLogEvent> {
    return (this.#eventStream ??= new EventStream<RunLogEvent>(joinTextDeltas));
  }

  get #trace(): LiveTrace {
    return (this.#liveTrace ??= liveTrace());
  }

  /** The run's trace, built from its events (every event emitted so far is in it). */
  get trace(): LiveTrace {
    this.#publishKept();
    return this.#trace;
  }

  /**
   * From now on every event is published as it is emitted; the events kept until now are
   * published first, in order. A reader of {@link events} does this when it starts.
   */
  follow(): void {
    this.#publishKept();
    this.#kept = undefined;
  }

  /**
   * The trace node id of a new node named `name` (`step:review`, `tool:review#1.0`, `model`)
   * under the node `parentId`, unique within the run (child runs included). It is derived
   * from that place, never from the order nodes start in: a run told again (a recovered or
   * resumed run, whose `<Parallel>` branches and concurrent tool calls may start in another
   * order) gives every node the id it had, so a follower matches what it is told again.
   * Nodes of one name under one parent (a step's model calls, a `<Catch>`'s attempts) come
   * one after another, and are numbered in that order.
   */
  nodeId(parentId: string | undefined, name: string): string {
    return placeNodeId(this.#places, parentId, name);
  }

  /**
   * Notes the tool call node an approval request concerns, for the request's events, and,
   * with a durable engine, the record name of the call's execution (`record`).
   */
  placeApproval(id: string, place: NodePlace, record?: string): void {
    (this.#approvalPlaces ??= new Map()).set(id, place);
    if (record !== undefined) (this.#approvalRecords ??= new Map()).set(id, record);
  }

  /** The record name of the call approval request `id` concerns, when noted. */
  approvalRecord(id: string): string | undefined {
    return this.#approvalRecords?.get(id);
  }

  /** The tool call node of approval request `id`, once its request part came. */
  approvalPlace(id: string): NodePlace | undefined {
    return this.#approvalPlaces?.get(id);
  }

  /**
   * Sends an event to the run's log (its time, `at`, is now unless given), redacted, then to
   * each consumer. With something to redact, streamed text is held back from wherever a secret
   * value may begin, and with a pattern from its last whitespace on (until more text or another
   * event comes), so a secret split across deltas, spaces and all, is still found.
   */
  emit(input: EventInput): void {
    // every caller passes a new object literal, so it becomes the event as it is
    if (input.at === undefined) input.at = Date.now();
    if (this.#kept) this.#kept.push(input);
    else this.#send(input);
  }

  /**
   * {@link emit}, with fields made from the trace as it stands when the event is applied
   * (every event before it in), such as a `run-finish`'s `failures`.
   */
  emitWith(input: EventInput, late: (trace: LiveTrace) => Partial<EventInput>): void {
    if (input.at === undefined) input.at = Date.now();
    if (this.#kept) this.#kept.push(new LateFields(input, late));
    else this.#send(Object.assign(input, late(this.#trace)));
  }

  /** Publishes the kept events, in the order they were emitted. */
  #publishKept(): void {
    const kept = this.#kept;
    if (!kept || kept.length === 0) return;
    this.#kept = [];
    for (const entry of kept) {
      if (entry instanceof LateFields)
        this.#send(Object.assign(entry.input, entry.late(this.#trace)));
      else this.#send(entry);
    }
    if (this.#closed) this.#events.close();
  }

  #send(input: EventInput): void {
    const event = input as RunLogEvent;
    if (this.redactor.empty) return this.#publish(event);
    if (isDelta(event)) return this.#text(event);
    this.#flushText();
    this.#publish(this.redactor.value(event));
  }

  /**
   * Runs `work` for the trace node `nodeId` (a step's model calls) inside what each consumer
   * puts around it (`RunConsumer.within`: an exporter's active span); as it is without one.
   */
  within<T>(nodeId: string, work: () => T): T {
    let wrapped = work;
    for (const consumer of this.consumers) {
      const inner = wrapped;
      if (consumer.within) wrapped = () => consumer.within!(nodeId, inner);
    }
    return wrapped();
  }

  /** Ends the log: its readers finish once they have read every event. */
  close(): void {
    this.#closed = true;
    if (!this.#kept?.length) this.#events.close();
  }

  #publish(event: RunLogEvent): void {
    if (this.#ended) return;
    applyEvent(this.#trace, event);
    if (event.type === 'run-finish' && event.parentId === undefined) this.#ended = true;
    for (const consumer of this.consumers) {
      try {
        consumer.event(event);
      } catch (error) {
        process.emitWarning(`june: a run consumer threw on "${event.type}": ${String(error)}`);
      }
    }
    this.#events.push(event);
    this.#engine.publish(event);
  }

  #text(event: TextEvent): void {
    const key = `${event.type} ${event.nodeId}`;
    const heldText = (this.#heldText ??= new Map());
    const text = (heldText.get(key)?.delta ?? '') + event.delta;
    // with a pattern, from the last whitespace on (its match may go on); never through a
    // value, nor from where one may begin (a provider key in the environment holds back only that)
    const wordCut = this.redactor.patterned && text.length <= MAX_HELD_TEXT;
    const cut = this.redactor.safeCut(text, wordCut ? text.search(/\s\S*$/) + 1 : text.length);
    if (cut < text.length) heldText.set(key, { ...event, delta: text.slice(cut) });
    else heldText.delete(key);
    if (cut > 0) this.#publish({ ...event, delta: this.redactor.text(text.slice(0, cut)) });
  }

  #flushText(): void {
    if (!this.#heldText) return;
    for (const held of this.#heldText.values())
      this.#publish({ ...held, delta: this.redactor.text(held.delta) });
    this.#heldText.clear();
  }
}

/** A piece of streamed text or reasoning. */
type TextEvent = DeltaEvent;

/** An event kept until the log is followed: as emitted, or with fields made when it is applied. */
type KeptEvent = EventInput | LateFields;

/** An event kept with the fields made from the trace when it is applied (see `RunLog.emitWith`). */
class LateFields {
  constructor(
    readonly input: EventInput,
    readonly late: (trace: LiveTrace) => Partial<EventInput>,
  ) {}
}

/**
 * Keeps a late reader's history short: consecutive deltas of one model call (text, or
 * reasoning) are replayed as one delta holding their text.
 */
const joinTextDeltas: EventJoining<RunLogEvent> = {
  canJoin: (first, next) =>
    isDelta(first) &&
    next.type === first.type &&
    first.nodeId === next.nodeId &&
    first.step === next.step &&
    first.runId === next.runId,
  join: (events) => ({
    ...(events[0] as TextEvent),
    delta: events.map((e) => (e as TextEvent).delta).join(''),
  }),
};

/**
 * The id of the node `name` under `parentId` ({@link RunLog.nodeId}): `n` and 16 hex digits
 * of a hash of its place ({@link placeHash}), the count of earlier nodes of that place in
 * `places` included.
 */
export function placeNodeId(
  places: Map<string, number>,
  parentId: string | undefined,
  name: string,
): string {
  const place = `${parentId ?? ''}\n${name}`;
  const count = (places.get(place) ?? 0) + 1;
  places.set(place, count);
  return `n${placeHash(count === 1 ? place : `${place}\n${count}`)}`;
}
