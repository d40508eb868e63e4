/** A bound on concurrent runs: a run takes a numbered slot, or waits in a bounded queue. */
export class QueueFull extends Error {
  override readonly name = 'QueueFull';
}
export class QueueWaitTooLong extends Error {
  override readonly name = 'QueueWaitTooLong';
}

interface Waiter {
  resolve(slot: number): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export class RunQueue {
  private readonly free: number[];
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly concurrency: number,
    private readonly maxQueued: number,
    private readonly maxWaitMs: number,
  ) {
    this.free = Array.from({ length: concurrency }, (_, i) => concurrency - 1 - i);
  }

  get running(): number {
    return this.concurrency - this.free.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `fn` with a slot number (0..concurrency-1) once one is free. */
  async run<T>(fn: (slot: number) => Promise<T>): Promise<T> {
    const slot = await this.acquire();
    try {
      return await fn(slot);
    } finally {
      this.release(slot);
    }
  }

  private acquire(): Promise<number> {
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    if (this.waiting.length >= this.maxQueued) return Promise.reject(new QueueFull(`${this.running} runs in flight and ${this.waiting.length} queued`));
    return new Promise<number>((resolve, reject) => {
      const w: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(w);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new QueueWaitTooLong(`no run slot became free within ${this.maxWaitMs} ms`));
        }, this.maxWaitMs),
      };
      this.waiting.push(w);
    });
  }

  private release(slot: number): void {
    const next = this.waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve(slot);
    } else {
      this.free.push(slot);
    }
  }
}
