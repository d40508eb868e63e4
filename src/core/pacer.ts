/**
 * Long synchronous work on the main thread (an index build on SQLite, whose calls do not yield)
 * calls the function this returns between units of work: every `ms` milliseconds it lets the
 * event loop run, so that timers, sockets and child processes' events started beside it go on.
 */
export function pacer(ms = 20): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < ms) return;
    await new Promise((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
