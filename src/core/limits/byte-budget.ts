/**
 * A bound on bytes held at once across concurrent requests (bodies read into memory before they
 * are handed on). A request that says its size waits, unread, until its bytes fit: the socket is
 * not read meanwhile, so the sender is held back by TCP rather than by the server's memory. Bytes
 * of unknown size are taken as they arrive, or refused when they do not fit.
 */
export class ByteBudget {
  private held = 0;
  private readonly waiting: { bytes: number; grant: (ok: boolean) => void }[] = [];

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.held;
  }

  /** Takes `bytes` now if they fit beside what is held and nobody waits before; else false. */
  tryTake(bytes: number): boolean {
    if (bytes > this.limit || this.held + bytes > this.limit || this.waiting.length > 0) return false;
    this.held += bytes;
    return true;
  }

  /** Waits, in order of asking, until `bytes` fit; false when they never can or `timeoutMs` passed. */
  acquire(bytes: number, timeoutMs: number): Promise<boolean> {
    if (bytes > this.limit) return Promise.resolve(false);
    if (this.tryTake(bytes)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const entry = {
        bytes,
        grant: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(entry);
        if (i !== -1) this.waiting.splice(i, 1);
        resolve(false);
        this.wake();
      }, timeoutMs);
      timer.unref();
      this.waiting.push(entry);
    });
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
    this.wake();
  }

  private wake(): void {
    for (;;) {
      const first = this.waiting[0];
      if (!first || this.held + first.bytes > this.limit) return;
      this.waiting.shift();
      this.held += first.bytes;
      first.grant(true);
    }
  }
}
