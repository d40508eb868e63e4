import { compact, copyCategories, revisions, sortIds } from './common.js';
import { kDa, polymerType, type EntityInfo, type StructureModel } from './model.js';

export type ObjectKind = 'polymer_entity' | 'nonpolymer_entity' | 'branched_entity' | 'polymer_entity_instance' | 'nonpolymer_entity_instance' | 'branched_entity_instance' | 'assembly';

/** A document of an entry's part, with the id the Data API gives it (`4HHB_1`, `4HHB.A`, `4HHB-1`). */
export interface PartDocument {
  kind: ObjectKind;
  /** The part's own id within the entry (entity id, asym id, assembly id). */
  key: string;
  doc: Record<string, unknown>;
}

const rowsBy = (m: StructureModel, category: string, item: string, value: string): number[] => m.entry.table(category).where(item, value);

function latestRevision(m: StructureModel): Record<string, unknown> | undefined {
  const { latest } = revisions(m.entry);
  return latest ? { major_revision: latest.major, minor_revision: latest.minor } : undefined;
}

function authIds(m: StructureModel, e: EntityInfo): string[] {
  return sortIds(e.asyms.map((a) => m.asyms.get(a)?.authId).filter((v): v is string => !!v));
}

function sourceOrganisms(m: StructureModel, entityId: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const sources: [string, string, string, string, string][] = [
    ['entity_src_gen', 'genetically engineered', 'pdbx_gene_src_scientific_name', 'pdbx_gene_src_ncbi_taxonomy_id', 'gene_src_common_name'],
    ['entity_src_nat', 'natural', 'pdbx_organism_scientific', 'pdbx_ncbi_taxonomy_id', 'common_name'],
    ['pdbx_entity_src_syn', 'synthetic', 'organism_scientific', 'ncbi_taxonomy_id', 'organism_common_name'],
  ];
  for (const [cat, type, sciItem, taxItem, commonItem] of sources) {
    const t = m.entry.table(cat);
    for (const r of t.where('entity_id', entityId)) {
      const tax = t.int(taxItem, r);
      const sci = t.str(sciItem, r);
      out.push(
        compact({
          beg_seq_num: t.int('pdbx_beg_seq_num', r),
          common_name: t.str(commonItem, r),
          end_seq_num: t.int('pdbx_end_seq_num', r),
          ncbi_scientific_name: sci,
          ncbi_taxonomy_id: tax,
          pdbx_src_id: t.int('pdbx_src_id', r),
          provenance_source: 'PDB Primary Data',
          scientific_name: sci,
          source_type: type,
          rcsb_gene_name: geneNames(t.str('pdbx_gene_src_gene', r) ?? t.str('gene_src_gene', r)),
        }),
      );
    }
  }
  return out;
}

function geneNames(v: string | undefined): Record<string, unknown>[] | undefined {
  if (!v) return undefined;
  const names = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length ? names.map((value) => ({ provenance_source: 'PDB Primary Data', value })) : undefined;
}

function hostOrganisms(m: StructureModel, entityId: string): Record<string, unknown>[] {
  const t = m.entry.table('entity_src_gen');
  const out: Record<string, unknown>[] = [];
  for (const r of t.where('entity_id', entityId)) {
    const sci = t.str('pdbx_host_org_scientific_name', r);
    if (!sci) continue;
    out.push(
      compact({
        beg_seq_num: t.int('pdbx_beg_seq_num', r),
        common_name: t.str('host_org_common_name', r),
        end_seq_num: t.int('pdbx_end_seq_num', r),
        ncbi_scientific_name: sci,
        ncbi_taxonomy_id: t.int('pdbx_host_org_ncbi_taxonomy_id', r),
        pdbx_src_id: t.int('pdbx_src_id', r),
        provenance_source: 'PDB Primary Data',
        scientific_name: sci,
      }),
    );
  }
  return out;
}

function entityCore(e: EntityInfo, m: StructureModel): Record<string, unknown> {
  const t = m.entry.table('entity');
  return compact({
    details: t.str('details', e.row),
    formula_weight: kDa(e.formulaWeight),
    pdbx_description: e.description,
    pdbx_ec: t.str('pdbx_ec', e.row),
    pdbx_fragment: t.str('pdbx_fragment', e.row),
    pdbx_mutation: t.str('pdbx_mutation', e.row),
    pdbx_number_of_molecules: e.molecules,
  });
}

const STANDARD = new Set('ALA ARG ASN ASP CYS GLN GLU GLY HIS ILE LEU LYS MET PHE PRO SER THR TRP TYR VAL DA DC DG DT DU DI A C G U I N UNK'.split(' '));

export function polymerEntity(m: StructureModel, e: EntityInfo): PartDocument {
  const doc: Record<string, unknown> = {};
  copyCategories(m.entry, 'polymer_entity', doc, (cat) => rowsBy(m, cat, 'entity_id', e.id));
  const poly = doc.entity_poly as Record<string, unknown> | undefined;
  if (poly) {
    // The archive folds long sequences over lines; the Data API serves them as one string.
    for (const k of ['pdbx_seq_one_letter_code', 'pdbx_seq_one_letter_code_can']) if (typeof poly[k] === 'string') poly[k] = (poly[k] as string).replace(/\s+/g, '');
    poly.rcsb_entity_polymer_type = polymerType(e.polyType);
    poly.rcsb_sample_sequence_length = e.seqLength;
    const nonStd = e.monomers.filter((c) => !STANDARD.has(c));
    poly.rcsb_non_std_monomer_count = nonStd.length;
    if (nonStd.length) poly.rcsb_non_std_monomers = nonStd;
  }
  const sources = sourceOrganisms(m, e.id);
  const hosts = hostOrganisms(m, e.id);
  if (hosts.length) doc.rcsb_entity_host_organism = hosts;
  if (sources.length) doc.rcsb_entity_source_organism = sources;
  const names = m.entry.table('entity_name_com');
  const common = names.where('entity_id', e.id).flatMap((r) =>
    (names.str('name', r) ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  );
  if (common.length) doc.rcsb_polymer_entity_name_com = common.map((name) => ({ name }));
  doc.rcsb_latest_revision = latestRevision(m);
  const core = entityCore(e, m);
  const taxa = new Set(sources.map((s) => s.ncbi_taxonomy_id).filter((v) => v !== undefined));
  core.rcsb_multiple_source_flag = sources.length > 1 ? 'Y' : 'N';
  core.rcsb_source_part_count = sources.length;
  core.rcsb_source_taxonomy_count = taxa.size;
  doc.rcsb_polymer_entity = core;
  doc.rcsb_polymer_entity_container_identifiers = compact({
    asym_ids: e.asyms,
    auth_asym_ids: authIds(m, e),
    chem_comp_monomers: e.monomers.length ? e.monomers : undefined,
    chem_comp_nstd_monomers: e.monomers.filter((c) => !STANDARD.has(c)).length ? e.monomers.filter((c) => !STANDARD.has(c)) : undefined,
    entity_id: e.id,
    entry_id: m.id,
    rcsb_id: `${m.id}_${e.id}`,
  });
  doc.rcsb_id = `${m.id}_${e.id}`;
  return { kind: 'polymer_entity', key: e.id, doc: compact(doc) };
}

export function nonpolymerEntity(m: StructureModel, e: EntityInfo): PartDocument {
  const doc: Record<string, unknown> = {};
  copyCategories(m.entry, 'nonpolymer_entity', doc, (cat) => rowsBy(m, cat, 'entity_id', e.id));
  doc.rcsb_latest_revision = latestRevision(m);
  doc.rcsb_nonpolymer_entity = entityCore(e, m);
  doc.rcsb_nonpolymer_entity_container_identifiers = compact({
    asym_ids: e.asyms,
    auth_asym_ids: authIds(m, e),
    chem_ref_def_id: e.compId,
    entity_id: e.id,
    entry_id: m.id,
    nonpolymer_comp_id: e.compId,
    rcsb_id: `${m.id}_${e.id}`,
  });
  doc.rcsb_id = `${m.id}_${e.id}`;
  return { kind: 'nonpolymer_entity', key: e.id, doc: compact(doc) };
}

export function branchedEntity(m: StructureModel, e: EntityInfo): PartDocument {
  const doc: Record<string, unknown> = {};
  copyCategories(m.entry, 'branched_entity', doc, (cat) => rowsBy(m, cat, 'entity_id', e.id));
  const branch = doc.pdbx_entity_branch as Record<string, unknown> | undefined;
  // Components of the oligosaccharide: the monomers of its scheme in one instance.
  const scheme = m.entry.table('pdbx_entity_branch_list').where('entity_id', e.id);
  if (branch) branch.rcsb_branched_component_count = scheme.length;
  const comps = new Set<string>();
  const list = m.entry.table('pdbx_entity_branch_list');
  for (const r of scheme) {
    const c = list.str('comp_id', r);
    if (c) comps.add(c);
  }
  doc.rcsb_branched_entity = entityCore(e, m);
  doc.rcsb_branched_entity_container_identifiers = compact({
    asym_ids: e.asyms,
    auth_asym_ids: authIds(m, e),
    chem_comp_monomers: comps.size ? [...comps].sort() : undefined,
    entity_id: e.id,
    entry_id: m.id,
    rcsb_id: `${m.id}_${e.id}`,
  });
  doc.rcsb_latest_revision = latestRevision(m);
  doc.rcsb_id = `${m.id}_${e.id}`;
  return { kind: 'branched_entity', key: e.id, doc: compact(doc) };
}

/** The instances (chains) of every entity but water. */
export function instances(m: StructureModel): PartDocument[] {
  const out: PartDocument[] = [];
  const latest = latestRevision(m);
  for (const a of m.asyms.values()) {
    const e = m.entities.get(a.entityId);
    if (!e || e.kind === 'water') continue;
    const rcsbId = `${m.id}.${a.id}`;
    const doc: Record<string, unknown> = {};
    const object = e.kind === 'polymer' ? 'polymer_entity_instance' : e.kind === 'branched' ? 'branched_entity_instance' : 'nonpolymer_entity_instance';
    copyCategories(m.entry, object, doc, (cat) => (cat === 'struct_asym' ? rowsBy(m, cat, 'id', a.id) : []));
    const ids: Record<string, unknown> = { asym_id: a.id, auth_asym_id: a.authId, entity_id: e.id, entry_id: m.id, rcsb_id: rcsbId };
    if (object === 'polymer_entity_instance') {
      if (a.authSeqMap.length) ids.auth_to_entity_poly_seq_mapping = a.authSeqMap;
      doc.rcsb_polymer_entity_instance_container_identifiers = compact(ids);
    } else if (object === 'nonpolymer_entity_instance') {
      ids.auth_seq_id = a.firstAuthSeq;
      ids.comp_id = e.compId;
      doc.rcsb_nonpolymer_entity_instance_container_identifiers = compact(ids);
    } else {
      doc.rcsb_branched_entity_instance_container_identifiers = compact(ids);
    }
    doc.rcsb_latest_revision = latest;
    doc.rcsb_id = rcsbId;
    out.push({ kind: object, key: a.id, doc: compact(doc) });
  }
  return out;
}
