/**
 * The 3D-Beacons summary of an accession (`/api/uniprot/summary/{acc}.json`, schema `uniprot_summary`
 * of the 3D-Beacons API 2.0): this database's models and, when the structure database is loaded,
 * its experimental entries of the same accession, so one call lists both.
 */
import type { ServiceContext } from '../types.js';
import { crc64 } from './checksum.js';
import { afErrors } from './errors.js';
import { accessionParam, entriesOf, fileUrls, type Entry } from './handlers.js';

/** One element of `structures` (its `summary`, as the schema's `summary_items`). */
export interface BeaconsStructure {
  summary: {
    model_identifier: string;
    model_category: 'EXPERIMENTALLY DETERMINED' | 'TEMPLATE-BASED' | 'AB-INITIO' | 'CONFORMATIONAL ENSEMBLE' | 'DEEP-LEARNING';
    model_url: string;
    model_format: 'PDB' | 'MMCIF' | 'BCIF';
    model_type?: 'ATOMIC' | 'DUMMY' | 'MIX' | null;
    model_page_url?: string | null;
    provider: string;
    number_of_conformers?: number | null;
    ensemble_sample_url?: string | null;
    ensemble_sample_format?: string | null;
    created: string;
    sequence_identity: number;
    uniprot_start: number;
    uniprot_end: number;
    coverage: number;
    experimental_method?: string | null;
    resolution?: number | null;
    confidence_type?: string | null;
    confidence_version?: string | null;
    confidence_avg_local_score?: number | null;
    oligomeric_state?: string | null;
    preferred_assembly_id?: string | null;
    entities: {
      entity_type: 'BRANCHED' | 'MACROLIDE' | 'NON-POLYMER' | 'POLYMER' | 'WATER';
      entity_poly_type?: string | null;
      identifier?: string | null;
      identifier_category?: string | null;
      description: string;
      chain_ids: string[];
    }[];
  };
}

/**
 * Experimental structures of a UniProt accession, as 3D-Beacons structures of provider "PDBe"
 * (model_category "EXPERIMENTALLY DETERMINED"). The structure database service supplies one; until
 * it is wired in, there are none. `origin` is the scheme, host and port the client used (e.g.
 * `http://127.0.0.1:8080`), to build `model_url`s on this server.
 */
export interface ExperimentalStructures {
  byUniprot(accession: string, request: { origin: string }): Promise<BeaconsStructure[]>;
}

export const noExperimentalStructures: ExperimentalStructures = { byUniprot: async () => [] };

/**
 * The fraction of the UniProt sequence a structure covers, as the 3D-Beacons schema defines it:
 * (uniprot_end - uniprot_start + 1) / the sequence's length, to two decimals (4HHB chain A, P69905
 * 2-142 of 142: 0.99).
 */
export function coverageOf(start: number, end: number, length: number): number {
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start || length <= 0) return 0;
  return Math.min(1, Math.round(((end - start + 1) / length) * 100) / 100);
}

function modelStructure(e: Entry, base: string, length: number): BeaconsStructure {
  const r = e.latest;
  const d = r.doc;
  const start = (e.meta.uniprotStart as number | undefined) ?? d.uniprotStart;
  const end = (e.meta.uniprotEnd as number | undefined) ?? d.uniprotEnd;
  const created = ((e.meta.modelCreatedDate as string | undefined) ?? d.created ?? '').slice(0, 10);
  return {
    summary: {
      model_identifier: r.entry_id,
      model_category: 'AB-INITIO',
      model_url: fileUrls(base, r.entry_id, r.version).cifUrl,
      model_format: 'MMCIF',
      model_type: null,
      model_page_url: `${base}/entry/${r.acc}`,
      provider: 'AlphaFold DB',
      number_of_conformers: null,
      ensemble_sample_url: null,
      ensemble_sample_format: null,
      created,
      sequence_identity: 1,
      uniprot_start: start,
      uniprot_end: end,
      coverage: coverageOf(start, end, length),
      experimental_method: null,
      resolution: null,
      confidence_type: 'pLDDT',
      confidence_version: null,
      confidence_avg_local_score: (e.meta.globalMetricValue as number | undefined) ?? d.summary.globalMetricValue,
      oligomeric_state: null,
      preferred_assembly_id: null,
      entities: [
        {
          entity_type: 'POLYMER',
          entity_poly_type: 'POLYPEPTIDE(L)',
          identifier: r.acc,
          identifier_category: 'UNIPROT',
          description: (e.meta.uniprotDescription as string | undefined) ?? d.description ?? '',
          chain_ids: ['A'],
        },
      ],
    },
  };
}

export async function beaconsSummary(ctx: ServiceContext, experimental: ExperimentalStructures, qualifier: string, base: string, origin: string, provider?: string): Promise<Record<string, unknown>> {
  const acc = accessionParam(qualifier);
  // Only the accession asked for: an isoform is an accession of its own in 3D-Beacons.
  const entries = (await entriesOf(ctx, acc)).filter((e) => e.latest.acc === acc);
  const pdb = await experimental.byUniprot(acc, { origin });
  if (entries.length === 0 && pdb.length === 0) throw afErrors.notFound();
  // The UniProt sequence is the full-length model's (fragments start past residue 1).
  const fragmented = entries.some((e) => e.latest.fragment > 1);
  const full = fragmented ? undefined : entries[0];
  const seq = full ? ((full.meta.uniprotSequence as string | undefined) ?? full.latest.doc.sequence) : '';
  const length = Math.max(seq.length, ...entries.map((e) => e.latest.doc.uniprotEnd), ...pdb.map((s) => s.summary.uniprot_end));
  const named = entries[0];
  const id = named ? ((named.meta.uniprotId as string | undefined) ?? named.latest.doc.uniprotId) : null;
  // Experimental entries are measured against the same UniProt length as the models: their
  // provider knows their UniProt range but not the sequence's length.
  const experimentalItems = pdb.map((s) => ({ ...s, summary: { ...s.summary, coverage: coverageOf(s.summary.uniprot_start, s.summary.uniprot_end, length) } }));
  let structures = [...entries.map((e) => modelStructure(e, base, length)), ...experimentalItems];
  if (provider) structures = structures.filter((s) => s.summary.provider.toLowerCase() === provider.toLowerCase());
  return {
    uniprot_entry: {
      ac: acc,
      id,
      uniprot_checksum: seq ? crc64(seq) : null,
      sequence_length: length,
      segment_start: 1,
      segment_end: length,
    },
    structures,
  };
}
