/**
 * FASTA as www.rcsb.org writes it: one record per polymer entity, the sequence on one line.
 * Header: `>{ENTRY}_{entity}|Chains A, C|{description}|{organism} ({taxid})`, with `Chain` for a
 * single chain, `A[auth B]` where the author's chain id differs from the label one, and an empty
 * last field when the entity has no source organism (synthetic constructs).
 */
import type { PolymerSequence } from '../../../core/mmcif/index.js';

function chains(s: PolymerSequence): string {
  const names = s.chains.map((c) => (c.auth && c.auth !== c.label ? `${c.label}[auth ${c.auth}]` : c.label));
  return `${names.length === 1 ? 'Chain' : 'Chains'} ${names.join(', ')}`;
}

function organisms(s: PolymerSequence): string {
  // Chimeras (several source organisms) are joined with ", " (the real separator is not recorded).
  return s.organisms.map((o) => (o.taxId ? `${o.name} (${o.taxId})` : o.name)).join(', ');
}

export function fastaRecord(entryId: string, s: PolymerSequence): string {
  return `>${entryId}_${s.entityId}|${chains(s)}|${s.description}|${organisms(s)}\n${s.sequence}\n`;
}

export function fasta(entryId: string, sequences: readonly PolymerSequence[]): string {
  return sequences.map((s) => fastaRecord(entryId, s)).join('');
}
