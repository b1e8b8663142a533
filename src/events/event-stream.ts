/**
 * A buffered, multi-reader async stream: every reader sees every event from the start, in
 * order, and ends when the stream closes. Internal to the run handle.
 */
export class EventStream<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private closed = false;
  private wakers: Array<() => void> = [];

  push(event: T): void {
    if (this.closed) return;
    this.buffer.push(event);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let index = 0;
    while (true) {
      if (index < this.buffer.length) {
        yield this.buffer[index++]!;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => this.wakers.push(resolve));
    }
  }
}
