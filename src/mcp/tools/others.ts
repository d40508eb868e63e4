/** GWAS Catalog, PDB, AlphaFold, preprints, PharmGKB and the execution service's skills. */
import { z } from 'zod';
import { ToolError, getJson } from '../context.js';
import { decodeCursor, encodeCursor, pick } from '../result.js';
import { enc, str, type ToolSpec } from './types.js';

type Obj = Record<string, unknown>;

export const otherTools: ToolSpec[] = [
  {
    name: 'gwas_associations',
    title: 'GWAS Catalog associations',
    description: 'GWAS Catalog associations by variant (rsId), mapped gene, trait or study accession, sorted by p-value. Use for genetic associations of a variant, gene or trait.',
    service: 'gwas',
    input: {
      variant: z
        .string()
        .regex(/^rs\d+$/, 'variant must be an rsId such as rs7903146')
        .optional(),
      gene: z.string().max(50).optional().describe('mapped gene symbol, e.g. TCF7L2'),
      trait: z.string().max(200).optional().describe('reported trait text'),
      study: z
        .string()
        .regex(/^GCST\d+$/, 'study must be an accession such as GCST000001')
        .optional(),
      limit: z.number().int().min(1).max(50).default(10),
      cursor: z.string().max(2000).optional(),
    },
    async run(ctx, a) {
      const { offset } = decodeCursor(str(a.cursor));
      const limit = a.limit as number;
      const q = new URLSearchParams({ sort: 'p_value', direction: 'asc', size: String(limit), page: String(Math.floor(offset / limit)) });
      if (str(a.variant)) q.set('rs_id', a.variant as string);
      if (str(a.gene)) q.set('mapped_gene', a.gene as string);
      if (str(a.trait)) q.set('reported_trait', a.trait as string);
      if (str(a.study)) q.set('accession_id', a.study as string);
      if ([...q.keys()].length === 4) throw new ToolError('variant, gene, trait or study: give at least one');
      const j = (await getJson(ctx, `/gwas/rest/api/v2/associations?${q}`, { record: 'the associations', dataset: 'gwas/catalog' })) as {
        _embedded?: { associations?: Obj[] };
        page?: { totalElements?: number };
      };
      const items = (j._embedded?.associations ?? []).map((x) =>
        pick(x, [
          'association_id',
          'accession_id',
          'snp_effect_allele',
          'p_value',
          'or_value',
          'beta',
          'ci_lower',
          'ci_upper',
          'reported_trait',
          'efo_traits',
          'mapped_genes',
          'risk_frequency',
          'pubmed_id',
        ]),
      );
      const total = j.page?.totalElements ?? null;
      return {
        ids: items.map((i) => String(i.association_id)),
        items,
        total,
        next_cursor: total !== null && offset + limit < total ? encodeCursor({ offset: offset + limit }) : null,
      };
    },
  },
  {
    name: 'pdb_entry',
    title: 'PDB entry',
    description:
      'An RCSB PDB entry by id: title, method, resolution, polymer entities, assemblies, and links to its files (mmCIF, PDB, BinaryCIF, assembly, FASTA). Use for a structure you know the id of.',
    service: 'rcsb-data',
    input: { entry_id: z.string().regex(/^[0-9][A-Za-z0-9]{3}$/, 'entry_id must be a 4-character PDB id such as 4HHB') },
    async run(ctx, a) {
      const id = (a.entry_id as string).toUpperCase();
      const e = (await getJson(ctx, `/rcsb/data/rest/v1/core/entry/${id}`, { record: `entry ${id}`, dataset: 'rcsb-data/archive' })) as Obj;
      const info = (e.rcsb_entry_info ?? {}) as Obj;
      const ids = (e.rcsb_entry_container_identifiers ?? {}) as Obj;
      const lower = id.toLowerCase();
      const item = {
        entry_id: id,
        title: (e.struct as Obj | undefined)?.title,
        method: (e.exptl as Obj[] | undefined)?.map((x) => x.method),
        resolution: info.resolution_combined,
        polymer_entity_ids: ids.polymer_entity_ids,
        assembly_ids: ids.assembly_ids,
        deposited_atoms: info.deposited_atom_count,
        release_date: (e.rcsb_accession_info as Obj | undefined)?.initial_release_date,
        files: {
          mmcif: `/rcsb/files/download/${lower}.cif`,
          bcif: `/rcsb/files/download/${lower}.bcif`,
          pdb: `/rcsb/files/download/${lower}.pdb`,
          assembly1: `/rcsb/files/download/${lower}-assembly1.cif`,
          fasta: `/rcsb/www/fasta/entry/${id}`,
        },
      };
      return { ids: [id], items: [item] };
    },
  },
  {
    name: 'alphafold_prediction',
    title: 'AlphaFold prediction',
    description:
      'The AlphaFold DB prediction of a UniProt accession: model id, version, mean pLDDT, confidence fractions and links to the model, confidence and PAE files. Use for a predicted structure of a protein.',
    service: 'alphafold',
    input: { uniprot: z.string().regex(/^[A-Z0-9]{6,10}$/, 'uniprot must be a UniProt accession such as P69905') },
    async run(ctx, a) {
      const acc = a.uniprot as string;
      const j = (await getJson(ctx, `/alphafold/api/prediction/${enc(acc)}`, { record: `prediction ${acc}`, dataset: 'alphafold/predictions' })) as Obj[];
      const items = j.map((p) =>
        pick(p, [
          'entryId',
          'uniprotAccession',
          'uniprotDescription',
          'organismScientificName',
          'latestVersion',
          'globalMetricValue',
          'fractionPlddtVeryHigh',
          'fractionPlddtConfident',
          'fractionPlddtLow',
          'fractionPlddtVeryLow',
          'uniprotStart',
          'uniprotEnd',
          'cifUrl',
          'paeDocUrl',
          'plddtDocUrl',
        ]),
      );
      return { ids: items.map((i) => String(i.entryId)), items };
    },
  },
  {
    name: 'preprints',
    title: 'Preprints by date or DOI',
    description: 'bioRxiv preprints: by DOI (every version) or posted in a date interval (YYYY-MM-DD). Use to find or cite a preprint.',
    service: 'biorxiv',
    input: {
      doi: z
        .string()
        .regex(/^10\.\d{4,9}\/\S+$/, 'doi must look like 10.1101/2024.01.01.123456')
        .optional(),
      from: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'from must be a date YYYY-MM-DD')
        .optional(),
      to: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'to must be a date YYYY-MM-DD')
        .optional(),
      cursor: z.string().max(2000).optional(),
    },
    async run(ctx, a) {
      const { offset } = decodeCursor(str(a.cursor));
      let url: string;
      if (str(a.doi)) url = `/biorxiv/details/biorxiv/${a.doi as string}`;
      else if (str(a.from) && str(a.to)) url = `/biorxiv/details/biorxiv/${a.from as string}/${a.to as string}/${offset}`;
      else throw new ToolError('doi, or from and to: give a DOI or a date interval');
      const j = (await getJson(ctx, url, { record: str(a.doi) ? `preprint ${a.doi as string}` : 'the interval', dataset: 'biorxiv/preprints' })) as {
        collection?: Obj[];
        messages?: { total?: number | string; count?: number }[];
      };
      const items = (j.collection ?? []).map((p) => pick(p, ['doi', 'version', 'title', 'authors', 'date', 'category', 'published']));
      const total = Number(j.messages?.[0]?.total ?? items.length);
      const more = !str(a.doi) && offset + items.length < total;
      return {
        ids: items.map((i) => `${String(i.doi)}v${String(i.version)}`),
        items: items.map((i) => ({ ...i, authors: String(i.authors ?? '').slice(0, 200) })),
        total,
        next_cursor: more ? encodeCursor({ offset: offset + items.length }) : null,
      };
    },
  },
  {
    name: 'pharmgkb_gene',
    title: 'PharmGKB gene',
    description: 'The PharmGKB (ClinPGx) record of a gene by symbol: id, name, whether it has CPIC guidelines or drug labels. Use for the pharmacogenomics of a gene.',
    service: 'pgx',
    input: { symbol: z.string().regex(/^[A-Za-z0-9-]{1,30}$/, 'symbol must be a gene symbol such as CYP2D6') },
    async run(ctx, a) {
      const sym = a.symbol as string;
      const j = (await getJson(ctx, `/pgx/v1/data/gene?symbol=${enc(sym)}&view=min`, { record: `gene ${sym}`, dataset: 'pgx/pharmgkb' })) as { data?: Obj[] };
      const items = (j.data ?? []).map((g) => pick(g, ['id', 'symbol', 'name', 'cpicGene', 'hasVariantAnnotation', 'pharmVarGene', 'chr']));
      return { ids: items.map((i) => String(i.id)), items };
    },
  },
  {
    name: 'skills_list',
    title: 'List execution skills',
    description: "The script-execution service's skills (Agent Skills): name, description and scripts. Use to find a ready-made script; skills_describe for its instructions.",
    service: 'exec',
    needsData: false,
    input: {},
    async run(ctx) {
      const j = (await getJson(ctx, '/exec/api/skills', { record: 'the skills', dataset: 'exec' })) as { skills?: Obj[] };
      const items = (j.skills ?? []).map((s) => ({ name: s.name, description: String(s.description ?? '').slice(0, 300), scripts: ((s.scripts ?? []) as Obj[]).map((x) => x.name) }));
      return { ids: items.map((i) => String(i.name)), items, total: items.length };
    },
  },
  {
    name: 'skills_describe',
    title: 'Describe a skill',
    description: "One skill's SKILL.md instructions and its scripts. Use before running one of its scripts.",
    service: 'exec',
    needsData: false,
    input: { skill: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'skill must be a skill name such as ncbi-gene') },
    async run(ctx, a) {
      const name = a.skill as string;
      const s = (await getJson(ctx, `/exec/api/skills/${enc(name)}`, { record: `skill ${name}`, dataset: 'the skills folders' })) as Obj;
      const item = {
        name: s.name,
        description: s.description,
        scripts: ((s.scripts ?? []) as Obj[]).map((x) => pick(x, ['name', 'file', 'language', 'usage'])),
        body: String(s.body ?? '').slice(0, 5000),
      };
      return { ids: [name], items: [item] };
    },
  },
];
