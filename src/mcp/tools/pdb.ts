/**
 * RCSB PDB beyond the entry: entities and assemblies (Data API REST), and the Search API's
 * attribute, sequence, structure and chemical queries. Searches page with the API's own
 * `paginate` option; a 204 (no hits) is an empty page.
 */
import { z } from 'zod';
import { getJson, type McpContext } from '../context.js';
import { decodeCursor, offsetPage, type Page } from '../result.js';
import { enc, paging, str, type ToolSpec } from './types.js';

type Obj = Record<string, unknown>;

const DATA = '/rcsb/data/rest/v1/core';
const SEARCH = '/rcsb/search/rcsbsearch/v2/query';
const DATASET = 'rcsb-data/archive';
const RETURN_TYPES = ['entry', 'polymer_entity', 'non_polymer_entity', 'polymer_instance', 'assembly', 'mol_definition'] as const;

const entryId = z
  .string()
  .regex(/^[0-9][A-Za-z0-9]{3}$/, 'entry_id must be a 4-character PDB id such as 4HHB')
  .describe('PDB id, e.g. 4HHB');
const returnType = (fallback: (typeof RETURN_TYPES)[number]) => z.enum(RETURN_TYPES).default(fallback).describe('what to return: entries, entities, chains, assemblies or chemical components');

/** One page of a Search API query: identifiers with scores, best first. */
async function searchPage(ctx: McpContext, node: Obj, rt: string, a: Obj): Promise<Page> {
  const { offset } = decodeCursor(str(a.cursor));
  const limit = a.limit as number;
  const body = { query: node, return_type: rt, request_options: { paginate: { start: offset, rows: limit } } };
  const j = (await getJson(ctx, SEARCH, { record: 'the search', dataset: DATASET }, body)) as { result_set?: { identifier: string; score: number }[]; total_count?: number } | undefined;
  const items = (j?.result_set ?? []).map((r) => ({ identifier: r.identifier, score: r.score }));
  const total = j?.total_count ?? 0;
  return offsetPage(
    items,
    items.map((i) => i.identifier),
    offset,
    offset + items.length < total,
    total,
  );
}

const names = (xs: unknown) => (Array.isArray(xs) ? (xs as Obj[]).map((x) => x.name ?? x.value).filter((x) => x !== undefined) : undefined);

/** The parts of an entity an agent cites: what it is, its sequence, its source and its references. */
function entityItem(kind: string, e: Obj): Obj {
  const ids = (e.rcsb_polymer_entity_container_identifiers ?? e.rcsb_nonpolymer_entity_container_identifiers ?? e.rcsb_branched_entity_container_identifiers ?? {}) as Obj;
  const main = (e.rcsb_polymer_entity ?? e.rcsb_nonpolymer_entity ?? e.rcsb_branched_entity ?? {}) as Obj;
  const poly = (e.entity_poly ?? {}) as Obj;
  const seq = typeof poly.pdbx_seq_one_letter_code_can === 'string' ? poly.pdbx_seq_one_letter_code_can : undefined;
  const refs = (ids.reference_sequence_identifiers ?? []) as Obj[];
  const organisms = ((e.rcsb_entity_source_organism ?? []) as Obj[]).map((o) => ({
    name: o.scientific_name ?? o.ncbi_scientific_name,
    taxonomy_id: o.ncbi_taxonomy_id,
    genes: names(o.rcsb_gene_name),
  }));
  return {
    rcsb_id: e.rcsb_id,
    kind,
    description: main.pdbx_description,
    other_names: names(e.rcsb_polymer_entity_name_com),
    type: poly.rcsb_entity_polymer_type ?? poly.type,
    length: poly.rcsb_sample_sequence_length,
    sequence: seq && seq.length > 3000 ? `${seq.slice(0, 3000)}…` : seq,
    molecules: main.pdbx_number_of_molecules,
    formula_weight_kda: main.formula_weight,
    chains: ids.auth_asym_ids,
    asym_ids: ids.asym_ids,
    comp_id: ids.nonpolymer_comp_id ?? (e.pdbx_entity_nonpoly as Obj | undefined)?.comp_id,
    uniprot_ids: ids.uniprot_ids ?? refs.filter((r) => r.database_name === 'UniProt').map((r) => r.database_accession),
    organisms: organisms.length ? organisms : undefined,
    ec: (main.rcsb_ec_lineage as Obj[] | undefined)?.map((x) => x.id),
  };
}

export const pdbTools: ToolSpec[] = [
  {
    name: 'pdb_entity',
    title: 'PDB entity',
    description:
      'One entity of a PDB entry (Data API): what the molecule is, its sequence, chains, source organism and genes, UniProt accessions, or the chemical component of a ligand. Use after pdb_entry for a protein, nucleic acid, ligand or glycan of a structure.',
    service: 'rcsb-data',
    input: {
      entry_id: entryId,
      entity_id: z
        .string()
        .regex(/^\d{1,4}$/, 'entity_id must be an entity number such as 1')
        .describe('entity number within the entry, e.g. 1'),
      kind: z.enum(['polymer', 'nonpolymer', 'branched']).default('polymer').describe('polymer (protein, nucleic acid), nonpolymer (ligand) or branched (glycan)'),
    },
    async run(ctx, a) {
      const id = (a.entry_id as string).toUpperCase();
      const kind = `${a.kind as string}_entity`;
      const e = (await getJson(ctx, `${DATA}/${kind}/${id}/${enc(a.entity_id as string)}`, { record: `${kind} ${id}_${a.entity_id as string}`, dataset: DATASET })) as Obj;
      const item = entityItem(kind, e);
      return { ids: [String(item.rcsb_id)], items: [item] };
    },
  },
  {
    name: 'pdb_assembly',
    title: 'PDB assembly',
    description:
      'One biological assembly of a PDB entry: oligomeric state and count, how it was determined, the chains it is built from, symmetry operators, and its composition (entities, instances, atoms). Use to know the functional form of a structure.',
    service: 'rcsb-data',
    input: {
      entry_id: entryId,
      assembly_id: z
        .string()
        .regex(/^\d{1,4}$/, 'assembly_id must be an assembly number such as 1')
        .default('1')
        .describe('assembly number, e.g. 1'),
    },
    async run(ctx, a) {
      const id = (a.entry_id as string).toUpperCase();
      const asm = a.assembly_id as string;
      const e = (await getJson(ctx, `${DATA}/assembly/${id}/${enc(asm)}`, { record: `assembly ${id}-${asm}`, dataset: DATASET })) as Obj;
      const s = (e.pdbx_struct_assembly ?? {}) as Obj;
      const info = (e.rcsb_assembly_info ?? {}) as Obj;
      const item = {
        rcsb_id: e.rcsb_id,
        oligomeric_details: s.oligomeric_details,
        oligomeric_count: s.oligomeric_count,
        details: s.rcsb_details ?? s.details,
        method: s.method_details,
        generation: ((e.pdbx_struct_assembly_gen ?? []) as Obj[]).map((g) => ({ operators: g.oper_expression, asym_ids: g.asym_id_list })),
        operators: ((e.pdbx_struct_oper_list ?? []) as Obj[]).map((o) => ({ id: o.id, type: o.type, symmetry: o.symmetry_operation })),
        symmetry: ((e.rcsb_struct_symmetry ?? []) as Obj[]).map((x) => ({ kind: x.kind, symbol: x.symbol, oligomeric_state: x.oligomeric_state, stoichiometry: x.stoichiometry })),
        composition: info.polymer_composition,
        polymer_entity_instances: info.polymer_entity_instance_count,
        nonpolymer_entity_instances: info.nonpolymer_entity_instance_count,
        atoms: info.atom_count,
        formula_weight_kda: info.formula_weight,
        properties: ((e.pdbx_struct_assembly_prop ?? []) as Obj[]).map((p) => ({ type: p.type, value: p.value })),
      };
      return { ids: [String(item.rcsb_id)], items: [item] };
    },
  },
  {
    name: 'pdb_attribute_search',
    title: 'PDB attribute search',
    description:
      'Search API attribute query: structures whose attribute (e.g. exptl.method, rcsb_entry_info.resolution_combined, rcsb_entity_source_organism.scientific_name) matches a value with an operator. Use for exact filters (method, resolution, organism, dates); pdb_search for words.',
    service: 'rcsb-data',
    input: {
      attribute: z
        .string()
        .regex(/^[A-Za-z0-9_.]{1,200}$/, 'attribute must be an attribute path such as exptl.method')
        .describe('attribute path, e.g. exptl.method'),
      operator: z.enum(['exact_match', 'contains_words', 'contains_phrase', 'equals', 'greater', 'greater_or_equal', 'less', 'less_or_equal', 'range', 'in', 'exists']).default('exact_match'),
      value: z
        .union([
          z.string().max(500),
          z.number(),
          z.array(z.union([z.string().max(200), z.number()])).max(100),
          z.object({ from: z.union([z.string().max(50), z.number()]), to: z.union([z.string().max(50), z.number()]) }),
        ])
        .optional()
        .describe('the value; a list for "in", {from, to} for "range"; none for "exists"'),
      return_type: returnType('entry'),
      ...paging(),
    },
    run(ctx, a) {
      const r = a.value as { from?: unknown; to?: unknown } | undefined;
      const value = a.operator === 'range' && r && typeof r === 'object' && !Array.isArray(r) ? { from: r.from, to: r.to, include_lower: true, include_upper: true } : a.value;
      const parameters = { attribute: a.attribute, operator: a.operator, ...(value === undefined ? {} : { value }) };
      return searchPage(ctx, { type: 'terminal', service: 'text', parameters }, a.return_type as string, a);
    },
  },
  {
    name: 'pdb_sequence_search',
    title: 'PDB sequence search',
    description:
      'Search API sequence query (MMseqs2): polymer entities whose sequence resembles a protein, DNA or RNA sequence, under an E-value and identity cut-off, best first. Use to find structures of a protein from its sequence.',
    service: 'rcsb-data',
    input: {
      sequence: z
        .string()
        .regex(/^[A-Za-z*\s]{10,10000}$/, 'sequence must be 10 to 10000 one-letter residue codes')
        .describe('one-letter sequence'),
      sequence_type: z.enum(['protein', 'dna', 'rna']).default('protein'),
      evalue_cutoff: z.number().min(0).max(1000).default(0.1),
      identity_cutoff: z.number().min(0).max(1).default(0).describe('minimum sequence identity, 0-1'),
      return_type: returnType('polymer_entity'),
      ...paging(),
    },
    run(ctx, a) {
      const parameters = { value: (a.sequence as string).replace(/\s+/g, '').toUpperCase(), sequence_type: a.sequence_type, evalue_cutoff: a.evalue_cutoff, identity_cutoff: a.identity_cutoff };
      return searchPage(ctx, { type: 'terminal', service: 'sequence', parameters }, a.return_type as string, a);
    },
  },
  {
    name: 'pdb_structure_search',
    title: 'PDB structure (shape) search',
    description:
      "Search API structure query: assemblies or chains of loaded entries whose 3D shape resembles an entry's assembly (or one chain). Use to find structurally similar proteins whatever their sequence.",
    service: 'rcsb-data',
    input: {
      entry_id: entryId,
      assembly_id: z
        .string()
        .regex(/^\d{1,4}$/, 'assembly_id must be an assembly number such as 1')
        .optional()
        .describe('compare this assembly (default 1 unless a chain is given)'),
      asym_id: z
        .string()
        .regex(/^[A-Za-z0-9]{1,4}$/, 'asym_id must be a chain id such as A')
        .optional()
        .describe('compare this chain instead'),
      operator: z.enum(['strict_shape_match', 'relaxed_shape_match']).default('strict_shape_match'),
      return_type: returnType('assembly'),
      ...paging(),
    },
    run(ctx, a) {
      const entry = (a.entry_id as string).toUpperCase();
      const value = str(a.asym_id) && !str(a.assembly_id) ? { entry_id: entry, asym_id: a.asym_id } : { entry_id: entry, assembly_id: str(a.assembly_id) ?? '1' };
      return searchPage(ctx, { type: 'terminal', service: 'structure', parameters: { value, operator: a.operator } }, a.return_type as string, a);
    },
  },
  {
    name: 'pdb_chemical_search',
    title: 'PDB chemical search',
    description:
      'Search API chemical query: chemical components (ligands) of the loaded PDB matching a SMILES or InChI descriptor, exactly, loosely, as a substructure or by fingerprint similarity; or the entries containing them. Use to find structures with a given ligand.',
    service: 'rcsb-data',
    input: {
      descriptor: z.string().min(1).max(2000).describe('SMILES, or an InChI string starting with InChI='),
      match_type: z
        .enum([
          'graph-exact',
          'graph-strict',
          'graph-relaxed',
          'graph-relaxed-stereo',
          'fingerprint-similarity',
          'sub-struct-graph-exact',
          'sub-struct-graph-strict',
          'sub-struct-graph-relaxed',
          'sub-struct-graph-relaxed-stereo',
        ])
        .default('graph-relaxed'),
      return_type: returnType('mol_definition'),
      ...paging(),
    },
    run(ctx, a) {
      const d = (a.descriptor as string).trim();
      const parameters = { type: 'descriptor', descriptor_type: d.startsWith('InChI=') ? 'InChI' : 'SMILES', value: d, match_type: a.match_type };
      return searchPage(ctx, { type: 'terminal', service: 'chemical', parameters }, a.return_type as string, a);
    },
  },
];
