import type { BeaconsStructure, ExperimentalStructures } from '../../alphafold/beacons.js';
import type { ServiceContext } from '../../types.js';
import { PdbData, type Doc } from '../store/pdb-data.js';

const METHOD: Record<string, string> = {
  'X-RAY DIFFRACTION': 'X-RAY DIFFRACTION',
  'SOLUTION NMR': 'SOLUTION NMR',
  'SOLID-STATE NMR': 'SOLID-STATE NMR',
  'ELECTRON MICROSCOPY': 'ELECTRON MICROSCOPY',
  'ELECTRON CRYSTALLOGRAPHY': 'ELECTRON CRYSTALLOGRAPHY',
  'NEUTRON DIFFRACTION': 'NEUTRON DIFFRACTION',
};

/**
 * The loaded PDB entries of a UniProt accession, as 3D-Beacons structures (provider "PDBe", as the
 * 3D-Beacons hub lists experimental entries), found through the SIFTS mapping. Each entry is one
 * structure, its chains those SIFTS maps to the accession, its range the union of their segments.
 */
export function pdbBeacons(ctx: ServiceContext): ExperimentalStructures {
  const data = new PdbData(ctx.db, ctx.generations);
  return {
    async byUniprot(accession: string, { origin }: { origin: string }): Promise<BeaconsStructure[]> {
      const rows = await data.siftsByAccession(accession);
      const byEntry = new Map<string, typeof rows>();
      for (const r of rows) byEntry.set(r.entry_id, [...(byEntry.get(r.entry_id) ?? []), r]);
      const entries = await data.entries([...byEntry.keys()]);
      const out: BeaconsStructure[] = [];
      for (const [id, segs] of byEntry) {
        const e = entries.get(id);
        if (!e) continue;
        const starts = segs.map((s) => s.sp_beg).filter((v): v is number => v !== null);
        const ends = segs.map((s) => s.sp_end).filter((v): v is number => v !== null);
        if (!starts.length || !ends.length) continue;
        const start = Math.min(...starts);
        const end = Math.max(...ends);
        const info = (e.rcsb_entry_info ?? {}) as Doc;
        const access = (e.rcsb_accession_info ?? {}) as Doc;
        const method = ((e.exptl as Doc[] | undefined)?.[0]?.method as string | undefined) ?? null;
        const resolution = (info.resolution_combined as number[] | undefined)?.[0] ?? null;
        const entity = await data.entityOfChain(id, segs[0]?.chain ?? '');
        out.push({
          summary: {
            model_identifier: id.toLowerCase(),
            model_category: 'EXPERIMENTALLY DETERMINED',
            model_url: `${origin}/rcsb/files/download/${id}.cif`,
            model_format: 'MMCIF',
            model_type: 'ATOMIC',
            model_page_url: `${origin}/rcsb/data/rest/v1/core/entry/${id}`,
            provider: 'PDBe',
            number_of_conformers: null,
            ensemble_sample_url: null,
            ensemble_sample_format: null,
            created: String(access.initial_release_date ?? '').slice(0, 10),
            sequence_identity: 1,
            uniprot_start: start,
            uniprot_end: end,
            coverage: 0,
            experimental_method: method ? (METHOD[method] ?? method) : null,
            resolution,
            confidence_type: null,
            confidence_version: null,
            confidence_avg_local_score: null,
            oligomeric_state: null,
            preferred_assembly_id: null,
            entities: [
              {
                entity_type: 'POLYMER',
                entity_poly_type: 'POLYPEPTIDE(L)',
                identifier: accession,
                identifier_category: 'UNIPROT',
                description: entity ?? accession,
                chain_ids: [...new Set(segs.map((s) => s.chain))],
              },
            ],
          },
        });
      }
      return out;
    },
  };
}
