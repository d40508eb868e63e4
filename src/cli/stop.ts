import type { Logger } from 'pino';
import { endOwned, ownedRunning } from '../core/children.js';

/**
 * From the first signal to the end of the process, at most. Container runtimes kill 10 to 30 s
 * after SIGTERM; a supervisor restarting the server should not wait on it either.
 */
export const STOP_DEADLINE_MS = 3_500;

/**
 * A load's SIGINT and SIGTERM: the first says `note` and stops the load (its programs end now), a
 * second exits at once. `dispose` stops listening.
 */
export function loadStopper(note: string): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\n${note}\n`);
    controller.abort();
    // A load in its last steps waits on MMseqs2 and an index thread: they end now.
    endOwned();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * SIGTERM and SIGINT as an AbortSignal, listened for before anything else is done so that a signal
 * during the start (the demo load) stops it too. Whatever still holds the process at the deadline
 * (a request that does not end once cut, a database that does not close) is left: its programs are
 * killed and the process exits, with status 0 since the stop was asked for and the data is whole
 * (an unfinished load is never switched to). A second signal exits at once.
 */
export function stopSignals(log: Logger): AbortSignal {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) {
      log.warn({ signal }, 'second signal, exiting now');
      endOwned();
      process.exit(130);
    }
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.warn({ waitingOn: process.getActiveResourcesInfo(), ...ownedRunning() }, `still stopping after ${STOP_DEADLINE_MS / 1000} s: exiting now`);
      endOwned();
      process.exit(0);
    }, STOP_DEADLINE_MS).unref();
    stop.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return stop.signal;
}

/**
 * Once the server has stopped (or failed to start), the process ends even if something it started
 * is still pending (a timer of a request whose connection was cut): it is given a moment to finish
 * writing its output, then it exits with the status already set.
 */
export function exitSoon(): void {
  setTimeout(() => process.exit(), 100).unref();
}
