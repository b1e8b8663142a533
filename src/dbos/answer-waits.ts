import { AnswerStore } from './answer-store.js';
import type { DbosApprovalAnswer } from './dbos-engine.js';
import { listenOn } from './listen.js';
import { ANSWERS_CHANNEL, ANSWER_POLLING_MS } from './names.js';
import { pgPool, type PgClient, type PgPool } from './pg-driver.js';

/** PostgreSQL's code for a table that does not exist. */
const UNDEFINED_TABLE = '42P01';

/** The answer of an approval request nobody answered before its deadline. */
export const TIMEOUT_REASON = 'nobody answered the approval request in time';

interface Waiter {
  runId: string;
  requestId: string;
  /** ms since epoch: past it, the request is denied (see {@link TIMEOUT_REASON}). */
  deadline: number;
  resolve(answer: DbosApprovalAnswer): void;
  reject(reason: unknown): void;
  /** Whether the request's timeout answer is being stored. */
  timingOut?: boolean;
}

/**
 * The waits of a worker's runs for the answers to their approval requests, by place: each
 * waits for its request's row in `june.answers` (the first answer stored for it, see
 * `AnswerStore`), whatever order the run asked its requests in. DBOS's own `recv` numbers
 * its waits in the order they are asked, which a recovered run need not keep.
 *
 * One query looks up every waiting request of the worker at once: as soon as a wait begins,
 * when a client notifies {@link ANSWERS_CHANNEL} that it stored an answer for one of these
 * runs (one connection of the worker's own listens), and every `pollingMs` ms anyway
 * (notifications do not pass a pooler in transaction mode, and a lost connection only makes
 * a wait last until the next poll). A request not answered by its deadline is denied: that
 * answer is stored as any other, so an answer stored at the same moment either stands, or
 * is refused as answered already.
 */
export class AnswerWaits {
  readonly #database: string;
  readonly #pollingMs: number;
  readonly #waiters = new Set<Waiter>();
  readonly #store: AnswerStore;
  #pool: PgPool | undefined;
  #listening: Promise<PgClient | undefined> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling = false;
  #again = false;
  #closed = false;

  constructor(database: string, pollingMs = ANSWER_POLLING_MS) {
    this.#database = database;
    this.#pollingMs = pollingMs;
    this.#store = new AnswerStore(database);
  }

  /**
   * Resolves with the answer stored for the request `requestId` of the run `runId`: at once
   * when there is one, else once one is stored; past `deadline` (ms since epoch), with the
   * stored denial of the timeout. Rejects when `signal` aborts or the waits are closed.
   * Database errors never reject: the wait goes on and looks again at the next poll.
   */
  wait(
    runId: string,
    requestId: string,
    deadline: number,
    signal: AbortSignal,
  ): Promise<DbosApprovalAnswer> {
    return new Promise<DbosApprovalAnswer>((resolve, reject) => {
      if (this.#closed || signal.aborted) {
        reject(signal.reason ?? new Error('june: the answer waits are closed'));
        return;
      }
      const forget = () => {
        this.#waiters.delete(waiter);
        signal.removeEventListener('abort', aborted);
      };
      const aborted = () => {
        forget();
        reject(signal.reason);
      };
      const waiter: Waiter = {
        runId,
        requestId,
        deadline,
        resolve: (answer) => {
          forget();
          resolve(answer);
        },
        reject: (reason) => {
          forget();
          reject(reason);
        },
      };
      signal.addEventListener('abort', aborted, { once: true });
      this.#waiters.add(waiter);
      this.#listen();
      this.#schedule(0);
    });
  }

  /** Ends every wait (rejected) and the connections. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const waiter of [...this.#waiters])
      waiter.reject(new Error('june: the answer waits are closed'));
    const client = await this.#listening;
    await client?.end().catch(() => {});
    await this.#pool?.end().catch(() => {});
    await this.#store.close();
  }

  /** Listens for stored answers (once; again after a lost connection). */
  #listen(): void {
    if (this.#listening || this.#closed) return;
    const forget = () => (this.#listening = undefined);
    this.#listening = listenOn(
      this.#database,
      ANSWERS_CHANNEL,
      (runId) => {
        if ([...this.#waiters].some((waiter) => waiter.runId === runId)) this.#schedule(0);
      },
      forget,
    ).then(async (client) => {
      if (!client) forget();
      else if (this.#closed) await client.end().catch(() => {});
      // an answer stored before the connection listened told no one: look once more now
      else this.#schedule(0);
      return client;
    });
  }

  /** Polls in `ms` ms (or sooner, if a poll is scheduled sooner already). */
  #schedule(ms: number): void {
    if (this.#closed) return;
    if (this.#polling) {
      if (ms === 0) this.#again = true;
      return;
    }
    if (this.#timer !== undefined && ms > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#poll(), ms);
    this.#timer.unref?.();
  }

  async #poll(): Promise<void> {
    this.#timer = undefined;
    if (this.#waiters.size === 0) return;
    this.#polling = true;
    this.#again = false;
    try {
      const found = await this.#stored([...this.#waiters]);
      const now = Date.now();
      for (const waiter of [...this.#waiters]) {
        const answer = found.get(`${waiter.runId}\n${waiter.requestId}`);
        if (answer) waiter.resolve(answer);
        else if (now >= waiter.deadline) this.#timeOut(waiter);
      }
    } catch {
      // the database is out of reach: the waits go on, and the next poll looks again
    } finally {
      this.#polling = false;
      if (this.#waiters.size > 0) this.#schedule(this.#again ? 0 : this.#pollingMs);
    }
  }

  /** The answers stored for the waiters' requests, by `<runId>\n<requestId>`. */
  async #stored(waiters: Waiter[]): Promise<Map<string, DbosApprovalAnswer>> {
    const pool = (this.#pool ??= pgPool({
      connectionString: this.#database,
      connectionTimeoutMillis: 10_000,
      max: 2,
      idleTimeoutMillis: 10_000,
    }));
    try {
      const { rows } = await pool.query(
        `SELECT run_id, request_id, answer FROM june.answers
         WHERE (run_id, request_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        [waiters.map((waiter) => waiter.runId), waiters.map((waiter) => waiter.requestId)],
      );
      return new Map(
        rows.map((row) => [
          `${String(row.run_id)}\n${String(row.request_id)}`,
          row.answer as DbosApprovalAnswer,
        ]),
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return new Map();
      throw error;
    }
  }

  /** Stores the timeout's denial of the waiter's request; the answer that stands ends the wait. */
  #timeOut(waiter: Waiter): void {
    if (waiter.timingOut) return;
    waiter.timingOut = true;
    const denial: DbosApprovalAnswer = {
      id: waiter.requestId,
      approved: false,
      reason: TIMEOUT_REASON,
      answeredBy: 'the approval timeout',
      answeredAt: new Date().toISOString(),
      source: 'database',
    };
    this.#store
      .store(waiter.runId, denial, async () => {})
      .then(
        (standing) => waiter.resolve(standing ?? denial),
        () => (waiter.timingOut = false), // looked at again at the next poll
      );
  }
}
