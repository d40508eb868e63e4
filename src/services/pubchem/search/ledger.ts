/**
 * Running time spent for a client after its request was answered (a search that continues under
 * a list key). The platform charges each request's own handling time; this adds the background
 * work, per process, so a client cannot get past the 300 s/minute budget by starting searches.
 */
export class Ledger {
  private readonly spent = new Map<string, { at: number; ms: number }[]>();

  constructor(private readonly windowMs = 60_000) {}

  add(client: string, ms: number): void {
    if (ms <= 0) return;
    const list = this.spent.get(client) ?? [];
    list.push({ at: Date.now(), ms });
    this.spent.set(client, list);
  }

  /** Milliseconds spent in the last window. */
  used(client: string): number {
    const list = this.spent.get(client);
    if (!list) return 0;
    const since = Date.now() - this.windowMs;
    const kept = list.filter((e) => e.at >= since);
    if (kept.length) this.spent.set(client, kept);
    else this.spent.delete(client);
    return kept.reduce((s, e) => s + e.ms, 0);
  }
}
