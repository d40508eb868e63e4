import { KeptStore } from '../core/pullthrough/store.js';
import type { Db } from '../core/store/db.js';

/**
 * A load of a service's dataset replaces what the service serves: the answers kept from its
 * upstream go too, so that the loaded release is what answers (docs/pull-through.md).
 */
export async function dropKeptAnswers(db: Db, service: string): Promise<void> {
  const n = await (await KeptStore.open(db)).clear(service);
  if (n) process.stderr.write(`${service}: dropped ${n} answer${n === 1 ? '' : 's'} kept from the upstream (the loaded data answers now)\n`);
}
