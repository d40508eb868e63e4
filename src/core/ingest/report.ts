/** The words a load reports: what it loaded, what it replaced, what an update changed. */
import type { LoadResult, ReplacedLoad } from './load.js';

const n = (v: number) => v.toLocaleString('en-US');

/** The progress line's last words: what the new generation holds. */
export function summary(label: string, r: LoadResult): string {
  const release = r.release ? ` (release ${r.release})` : '';
  const skipped = r.skipped ? `, skipped ${n(r.skipped)}` : '';
  if (r.mode === 'update') return `${label}: read ${n(r.read)} records${skipped}; generation ${r.gen} holds ${n(r.records)}${release}`;
  return `${label}: loaded ${n(r.records)} records${skipped} as generation ${r.gen}${release}`;
}

function source(s: string): string {
  return s.startsWith('demo:') ? 'demo' : s;
}

function served(p: ReplacedLoad, noun: string): string {
  const what = p.items !== undefined ? `${n(p.items)} ${noun}` : `${n(p.records)} records`;
  const when = p.loadedAt ? ` loaded ${p.loadedAt.slice(0, 10)}` : '';
  return `${what}${when} from ${source(p.source)}${p.release ? `, release ${p.release}` : ''} (generation ${p.gen})`;
}

/**
 * What a load did to what was served, for the person who ran it:
 *   replaced gwas/catalog: 18 studies loaded 2026-11-20 from demo (generation 3)
 *   updated gwas/catalog: studies 1 added, 0 replaced, 0 deleted; now 19 studies (generation 5)
 */
export function describeLoad(label: string, r: LoadResult): string[] {
  const lines: string[] = [];
  const took = loadTiming(r);
  if (r.mode === 'full') {
    lines.push(r.replaced ? `replaced ${label}: ${served(r.replaced, r.noun)}` : `${label}: nothing was loaded before`);
    if (took) lines.push(took);
    return lines;
  }
  const c = r.changes;
  if (!c) return lines;
  const [main, ...others] = Object.entries(c.parts);
  const now = r.items !== undefined ? `${n(r.items)} ${r.noun}` : `${n(r.records)} records`;
  if (main) {
    const [, m] = main;
    lines.push(`updated ${label}: ${r.noun} ${n(m.added)} added, ${n(m.replaced)} replaced, ${n(m.deleted)} deleted; now ${now} (generation ${r.gen})`);
  }
  const touched = others.filter(([, p]) => p.added + p.replaced + p.deleted > 0);
  if (touched.length) lines.push(`  also replaced: ${touched.map(([part, p]) => `${part} of ${n(p.replaced)}, added to ${n(p.added)}`).join('; ')}`);
  if (c.listedAbsent) lines.push(`  ${n(c.listedAbsent)} listed as deleted were not loaded`);
  if (c.keptGiven) lines.push(`  ${n(c.keptGiven)} listed as deleted are kept: this update gives them`);
  if (r.replaced) lines.push(`  started from ${served(r.replaced, r.noun)}`);
  if (took) lines.push(took);
  return lines;
}

/** A line about the space dropped generations left, when the file cannot give it back. */
export function spaceNote(r: LoadResult, file: string | undefined): string | undefined {
  if (!r.space || r.space.keptBytes < 64 << 20 || r.space.freedBytes > 0) return undefined;
  const mb = Math.round(r.space.keptBytes / (1 << 20));
  return `${mb} MB of dropped data stay inside ${file ?? 'the database file'} (reused by later loads); to give them back once, see "Disk space" in docs/operations.md`;
}

const sec = (s: number) => `${s.toFixed(1)} s`;

/**
 * Where a load's time went, for datasets that name their finishing steps (the PDB archive's
 * search and engine indexes):
 *   took 25.3 s: records read and written in 7.9 s, then 17.4 s of search tables 2.6 s, sequence index 9.1 s, ...
 */
export function loadTiming(r: Pick<LoadResult, 'seconds' | 'timing'>): string | undefined {
  const t = r.timing;
  if (!t || t.steps.length === 0) return undefined;
  const steps = t.steps.map((s) => `${s.step} ${sec(s.seconds)}`).join(', ');
  const overlap = t.steps.some((s) => s.alongside) ? ' (some steps run side by side)' : '';
  return `  took ${sec(r.seconds)}: records read and written in ${sec(t.readSeconds)}, then ${sec(t.finishSeconds)} of ${steps}${overlap}`;
}
