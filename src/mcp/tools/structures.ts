/** Structure tools beyond the entry: PDB text search, AlphaFold confidence and PAE summaries. */
import { z } from 'zod';
import { getJson } from '../context.js';
import { decodeCursor, encodeCursor } from '../result.js';
import { enc, str, type ToolSpec } from './types.js';

type Obj = Record<string, unknown>;

const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100 : null);

export const structureTools: ToolSpec[] = [
  {
    name: 'pdb_search',
    title: 'Search the PDB',
    description: "Full-text search of RCSB PDB entries (the Search API's full_text service), best first. Use to find structures of a protein, ligand or organism by words; then pdb_entry.",
    service: 'rcsb-data',
    input: {
      text: z.string().min(1).max(500).describe('words to search, e.g. "hemoglobin"'),
      limit: z.number().int().min(1).max(50).default(10),
      cursor: z.string().max(2000).optional(),
    },
    async run(ctx, a) {
      const { offset } = decodeCursor(str(a.cursor));
      const limit = a.limit as number;
      const query = { query: { type: 'terminal', service: 'full_text', parameters: { value: a.text } }, return_type: 'entry', request_options: { paginate: { start: offset, rows: limit } } };
      const j = (await getJson(ctx, '/rcsb/search/rcsbsearch/v2/query', { record: 'the search', dataset: 'rcsb-data/archive' }, query)) as
        { result_set?: { identifier: string; score: number }[]; total_count?: number } | undefined;
      const items = (j?.result_set ?? []).map((r) => ({ entry_id: r.identifier, score: r.score }));
      const total = j?.total_count ?? items.length;
      return { ids: items.map((i) => i.entry_id), items, total, next_cursor: offset + items.length < total ? encodeCursor({ offset: offset + limit }) : null };
    },
  },
  {
    name: 'alphafold_confidence',
    title: 'AlphaFold confidence and PAE summary',
    description:
      "For a UniProt accession's AlphaFold model: per-category pLDDT counts, mean pLDDT, the lowest-confidence stretches, and the PAE matrix's size, mean and maximum. Use to judge which parts of a predicted structure to trust.",
    service: 'alphafold',
    input: { uniprot: z.string().regex(/^[A-Z0-9]{6,10}$/, 'uniprot must be a UniProt accession such as P69905') },
    async run(ctx, a) {
      const acc = a.uniprot as string;
      const preds = (await getJson(ctx, `/alphafold/api/prediction/${enc(acc)}`, { record: `prediction ${acc}`, dataset: 'alphafold/predictions' })) as Obj[];
      const items: Obj[] = [];
      for (const p of preds.slice(0, 3)) {
        const id = `${String(p.entryId)}`;
        const v = Number(p.latestVersion ?? 4);
        const conf = (await getJson(ctx, `/alphafold/files/${enc(id)}-confidence_v${v}.json`, { record: `confidence of ${id}`, dataset: 'alphafold/predictions' })) as {
          confidenceScore?: number[];
          confidenceCategory?: string[];
        };
        const pae = (await getJson(ctx, `/alphafold/files/${enc(id)}-predicted_aligned_error_v${v}.json`, { record: `PAE of ${id}`, dataset: 'alphafold/predictions' })) as {
          predicted_aligned_error?: number[][];
          max_predicted_aligned_error?: number;
        }[];
        const scores = conf.confidenceScore ?? [];
        const categories: Record<string, number> = {};
        for (const c of conf.confidenceCategory ?? []) categories[c] = (categories[c] ?? 0) + 1;
        // Stretches of at least five residues under pLDDT 50: where the model is likely disordered.
        const low: [number, number][] = [];
        let start = -1;
        scores.forEach((s, i) => {
          if (s < 50 && start < 0) start = i;
          if ((s >= 50 || i === scores.length - 1) && start >= 0) {
            const end = s < 50 ? i : i - 1;
            if (end - start >= 4) low.push([start + 1, end + 1]);
            start = -1;
          }
        });
        const matrix = pae[0]?.predicted_aligned_error ?? [];
        items.push({
          entry_id: id,
          version: v,
          residues: scores.length,
          mean_plddt: mean(scores),
          plddt_categories: categories,
          low_confidence_stretches: low.slice(0, 20),
          pae: { size: matrix.length, mean: mean(matrix.flat()), max: pae[0]?.max_predicted_aligned_error ?? null },
        });
      }
      return { ids: items.map((i) => String(i.entry_id)), items };
    },
  },
];
