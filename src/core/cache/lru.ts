/**
 * A map that keeps the most recently used values, up to a budget of bytes (each value's size is
 * given when it is stored); a value over a quarter of the budget is not kept. Per process.
 */
export class SizedLru<T> {
  private readonly map = new Map<string, { value: T; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes held now. */
  get size(): number {
    return this.bytes;
  }

  get(key: string): T | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: string, value: T, bytes: number): void {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= old.bytes;
    }
    if (bytes > this.maxBytes / 4) return;
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.bytes;
    }
  }
}
