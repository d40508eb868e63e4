import type { EntryModel } from './entry-writer.js';
import type { SiftsRow } from './sifts.js';

export interface DemoEntry {
  model: EntryModel;
  text: string;
  structureFactors?: string;
  sifts: SiftsRow[];
}

export function demoEntries(): DemoEntry[] {
  return [];
}
