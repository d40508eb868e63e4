/**
 * The mmCIF entry writer shared by the demo and the benchmark generator: an entry model (entities,
 * instances with their residues and coordinates, metadata) in, archive-format PDBx/mmCIF text out,
 * with the categories and item order of wwPDB archive files. Also the archive's path conventions.
 */
import { CifBlockWriter, fixed, type CifRow } from './cif-text.js';
import { COMPONENTS } from './component-defs.js';
import { dist, type Rigid, type Vec } from './geometry.js';
import type { BuiltAtom, GlycanUnit } from './build.js';

/** The divided-folder path of an entry, as the archive lays it out: `hh/4hhb.cif.gz`. */
export function divided(id: string): string {
  const lc = id.toLowerCase();
  return `${lc.slice(-3, -1)}/${lc}.cif.gz`;
}

/** The structure-factor path in the archive's own naming: `structure_factors/hh/r4hhbsf.ent.gz`. */
export function sfPath(id: string): string {
  const lc = id.toLowerCase();
  return `structure_factors/${lc.slice(-3, -1)}/r${lc}sf.ent.gz`;
}

export type Method = 'X-RAY DIFFRACTION' | 'SOLUTION NMR' | 'ELECTRON MICROSCOPY';
export type PolyType = 'polypeptide(L)' | 'polyribonucleotide' | 'polydeoxyribonucleotide';

export interface Source {
  kind: 'gen' | 'nat' | 'syn';
  organism: string;
  taxid: number;
  commonName?: string;
  gene?: string;
  host?: { organism: string; taxid: number; strain?: string; cellLine?: string };
}

export interface UniProtRef {
  accession: string;
  name: string;
  /** UniProt position of the entity's first residue. */
  begin: number;
  /** UniProt residues per entity residue, when they differ (engineered mutations): entity seq id -> [db residue, db position]. */
  differences?: Array<{ seqId: number; dbComp: string; details: string }>;
}

export interface PolymerEntity {
  kind: 'polymer';
  id: string;
  description: string;
  polyType: PolyType;
  seq: string[];
  src: Source;
  mutation?: string;
  uniprot?: UniProtRef;
}
export interface BranchedEntity {
  kind: 'branched';
  id: string;
  description: string;
  units: GlycanUnit[];
  /** Descriptors of the glycan as text (type, descriptor), e.g. the GLYCAM condensed sequence. */
  descriptors: Array<{ type: string; descriptor: string }>;
}
export interface NonPolymerEntity {
  kind: 'non-polymer' | 'water';
  id: string;
  compId: string;
  description: string;
}
export type Entity = PolymerEntity | BranchedEntity | NonPolymerEntity;

export interface InstanceResidue {
  compId: string;
  /** label_seq_id for polymers, branch `num` for glycans, undefined otherwise. */
  seqId?: number;
  authSeq: number;
  /** Atoms per model (index 0 = model 1). */
  models: BuiltAtom[][];
  b?: number;
}
export interface Instance {
  asymId: string;
  entityId: string;
  authAsymId: string;
  residues: InstanceResidue[];
}

export interface ConnPartner {
  asymId: string;
  seqIndex: number; // index into the instance's residues
  atom: string;
}
export interface Conn {
  type: 'covale' | 'disulf' | 'metalc';
  leaving?: 'one' | 'both';
  role?: string;
  p1: ConnPartner;
  p2: ConnPartner;
}

export interface Operator {
  id: string;
  type: string;
  name?: string;
  symmetryOperation?: string;
  op: Rigid;
}
export interface Assembly {
  id: string;
  details: string;
  methodDetails?: string;
  oligomericDetails: string;
  count: number;
  gens: Array<{ oper: string; asyms: string[] }>;
}

export interface EntryModel {
  id: string;
  /** First line(s) of the file, e.g. `# GENERATED ...`. */
  header?: string;
  title: string;
  keywords: { pdbx: string; text: string };
  method: Method;
  depositDate: string;
  revisions: Array<{ date: string; major: number; minor: number }>;
  authors: string[];
  citation: { title: string; journal?: string; volume?: string; pageFirst?: string; pageLast?: string; year?: number; authors: string[] };
  cell?: { a: number; b: number; c: number; alpha: number; beta: number; gamma: number; z: number };
  spaceGroup?: { name: string; number: number };
  /** Whether the archive holds structure factors for the entry (`r{id}sf.ent`). */
  structureFactors?: boolean;
  xray?: { resolution: number; resLow: number; rWork: number; rFree: number; reflections: number; completeness: number; redundancy: number; iOverSigma: number };
  /** Single-particle EM: the reconstruction's resolution (Å) and particle count. */
  em?: { resolution: number; particles: number };
  nmr?: { calculated: number; submitted: number; criteria: string; representative: number; refinementMethod: string; software: Array<{ name: string; classification: string; authors?: string }> };
  entities: Entity[];
  instances: Instance[];
  assemblies: Assembly[];
  operators: Operator[];
  conns: Conn[];
}

export interface ComponentInfo {
  type: string;
  name: string;
  formula: string;
  weight: number;
  oneLetter?: string;
  synonyms?: string;
}

/** Component facts the writer needs (type, name, formula, weight), from the built dictionary. */
export type ComponentTable = Map<string, ComponentInfo>;

export function componentIdsOf(model: EntryModel): Set<string> {
  const ids = new Set<string>();
  for (const inst of model.instances) for (const r of inst.residues) ids.add(r.compId);
  return ids;
}

const WATER_WEIGHT = 18.015;

function entityWeight(e: Entity, comps: ComponentTable): number {
  const w = (id: string) => {
    const c = comps.get(id);
    if (!c) throw new Error(`component ${id} not in the dictionary`);
    return c.weight;
  };
  if (e.kind === 'polymer') return e.seq.reduce((s, id) => s + w(id), 0) - (e.seq.length - 1) * WATER_WEIGHT;
  if (e.kind === 'branched') return e.units.reduce((s, u) => s + w(u.compId), 0) - (e.units.length - 1) * WATER_WEIGHT;
  return w(e.compId);
}

function oneLetter(id: string): string {
  return COMPONENTS.find((c) => c.id === id)?.oneLetter ?? `(${id})`;
}

/** Sequences in the archive's text form: 80 letters a line. */
function wrap80(s: string): string {
  if (s.length <= 80) return s;
  const lines: string[] = [];
  for (let i = 0; i < s.length; i += 80) lines.push(s.slice(i, i + 80));
  return lines.join('\n');
}

const f10 = (n: number) => n.toFixed(10);

/** Writes the entry. `comps` must know every component the entry uses. */
export function writeEntry(m: EntryModel, comps: ComponentTable): string {
  const w = new CifBlockWriter(m.id, m.header);
  const id = m.id;
  const lc = id.toLowerCase();
  const isXray = m.method === 'X-RAY DIFFRACTION';
  const entityOf = new Map(m.entities.map((e) => [e.id, e]));
  const instOf = new Map(m.instances.map((i) => [i.asymId, i]));
  const nModels = Math.max(...m.instances.map((i) => i.residues[0]?.models.length ?? 1));

  w.category('entry', [{ id }]);
  w.category('audit_conform', [{ dict_name: 'mmcif_pdbx.dic', dict_version: '5.397', dict_location: 'http://mmcif.pdb.org/dictionaries/ascii/mmcif_pdbx.dic' }]);
  w.category('database_2', [
    { database_id: 'PDB', database_code: id, pdbx_database_accession: `pdb_0000${lc}`, pdbx_DOI: `10.2210/pdb${lc}/pdb` },
    { database_id: 'WWPDB', database_code: `D_${1000000000 + parseInt(lc.slice(1), 36)}`, pdbx_database_accession: null, pdbx_DOI: null },
  ]);
  w.category(
    'pdbx_audit_revision_history',
    m.revisions.map((r, i) => ({
      ordinal: i + 1,
      data_content_type: 'Structure model',
      major_revision: r.major,
      minor_revision: r.minor,
      revision_date: r.date,
    })),
  );
  w.category('pdbx_database_status', [
    {
      status_code: 'REL',
      entry_id: id,
      recvd_initial_deposition_date: m.depositDate,
      deposit_site: 'RCSB',
      process_site: 'RCSB',
      SG_entry: 'N',
      pdb_format_compatible: m.instances.length > 62 || m.instances.some((i) => i.authAsymId.length > 1) ? 'N' : 'Y',
      status_code_sf: m.structureFactors ? 'REL' : null,
      status_code_mr: m.nmr ? 'REL' : null,
      status_code_cs: m.nmr ? 'REL' : null,
    },
  ]);
  w.category(
    'audit_author',
    m.authors.map((name, i) => ({ name, pdbx_ordinal: i + 1, identifier_ORCID: null })),
  );
  const c = m.citation;
  w.category('citation', [
    {
      id: 'primary',
      title: c.title,
      journal_abbrev: c.journal ?? 'To be published',
      journal_volume: c.volume ?? null,
      page_first: c.pageFirst ?? null,
      page_last: c.pageLast ?? null,
      year: c.year ?? null,
      journal_id_ASTM: null,
      country: null,
      journal_id_ISSN: null,
      journal_id_CSD: c.journal ? null : '0353',
      book_publisher: null,
      pdbx_database_id_PubMed: null,
      pdbx_database_id_DOI: null,
    },
  ]);
  w.category(
    'citation_author',
    c.authors.map((name, i) => ({ citation_id: 'primary', name, ordinal: i + 1, identifier_ORCID: null })),
  );
  if (m.cell) {
    w.category('cell', [
      {
        entry_id: id,
        length_a: fixed(m.cell.a, 3),
        length_b: fixed(m.cell.b, 3),
        length_c: fixed(m.cell.c, 3),
        angle_alpha: fixed(m.cell.alpha, 2),
        angle_beta: fixed(m.cell.beta, 2),
        angle_gamma: fixed(m.cell.gamma, 2),
        Z_PDB: m.cell.z,
        pdbx_unique_axis: null,
      },
    ]);
  }
  if (m.spaceGroup) {
    w.category(
      'symmetry',
      [
        {
          entry_id: id,
          space_group_name_H_M: m.spaceGroup.name,
          pdbx_full_space_group_name_H_M: null,
          cell_setting: null,
          Int_Tables_number: m.spaceGroup.number,
        },
      ].map(renameHM),
    );
  }

  // entities
  const counts = new Map<string, number>();
  for (const inst of m.instances) {
    const e = entityOf.get(inst.entityId)!;
    counts.set(e.id, (counts.get(e.id) ?? 0) + (e.kind === 'water' ? inst.residues.length : 1));
  }
  w.category(
    'entity',
    m.entities.map((e) => ({
      id: e.id,
      type: e.kind,
      src_method: e.kind === 'polymer' ? (e.src.kind === 'gen' ? 'man' : e.src.kind) : e.kind === 'water' ? 'nat' : e.kind === 'branched' ? 'man' : 'syn',
      pdbx_description: e.description,
      formula_weight: entityWeight(e, comps).toFixed(3),
      pdbx_number_of_molecules: counts.get(e.id) ?? 0,
      pdbx_ec: null,
      pdbx_mutation: e.kind === 'polymer' ? (e.mutation ?? null) : null,
      pdbx_fragment: null,
      details: null,
    })),
  );
  const polys = m.entities.filter((e): e is PolymerEntity => e.kind === 'polymer');
  const strands = (eid: string) =>
    m.instances
      .filter((i) => i.entityId === eid)
      .map((i) => i.authAsymId)
      .join(',');
  if (polys.length) {
    w.category(
      'entity_poly',
      polys.map((e) => {
        const can = e.seq.map(oneLetter).join('');
        return {
          entity_id: e.id,
          type: e.polyType,
          nstd_linkage: 'no',
          nstd_monomer: 'no',
          pdbx_seq_one_letter_code: wrap80(can),
          pdbx_seq_one_letter_code_can: wrap80(can),
          pdbx_strand_id: strands(e.id),
          pdbx_target_identifier: null,
        };
      }),
    );
    w.category(
      'entity_poly_seq',
      polys.flatMap((e) => e.seq.map((mon, i) => ({ entity_id: e.id, num: i + 1, mon_id: mon, hetero: 'n' }))),
    );
  }
  const gen = polys.filter((e) => e.src.kind === 'gen');
  if (gen.length) {
    w.category(
      'entity_src_gen',
      gen.map((e) => ({
        entity_id: e.id,
        pdbx_src_id: 1,
        pdbx_alt_source_flag: 'sample',
        pdbx_seq_type: 'Biological sequence',
        pdbx_beg_seq_num: 1,
        pdbx_end_seq_num: e.seq.length,
        gene_src_common_name: e.src.commonName ?? null,
        pdbx_gene_src_gene: e.src.gene ?? null,
        pdbx_gene_src_scientific_name: e.src.organism,
        pdbx_gene_src_ncbi_taxonomy_id: e.src.taxid,
        pdbx_host_org_scientific_name: e.src.host?.organism ?? null,
        pdbx_host_org_ncbi_taxonomy_id: e.src.host?.taxid ?? null,
        pdbx_host_org_strain: e.src.host?.strain ?? null,
        pdbx_host_org_cell_line: e.src.host?.cellLine ?? null,
        pdbx_description: null,
      })),
    );
  }
  const nat = polys.filter((e) => e.src.kind === 'nat');
  if (nat.length) {
    w.category(
      'entity_src_nat',
      nat.map((e) => ({
        entity_id: e.id,
        pdbx_src_id: 1,
        pdbx_alt_source_flag: 'sample',
        pdbx_beg_seq_num: 1,
        pdbx_end_seq_num: e.seq.length,
        common_name: e.src.commonName ?? null,
        pdbx_organism_scientific: e.src.organism,
        pdbx_ncbi_taxonomy_id: e.src.taxid,
        details: null,
      })),
    );
  }
  const syn = polys.filter((e) => e.src.kind === 'syn');
  if (syn.length) {
    w.category(
      'pdbx_entity_src_syn',
      syn.map((e) => ({
        entity_id: e.id,
        pdbx_src_id: 1,
        pdbx_alt_source_flag: 'sample',
        pdbx_beg_seq_num: 1,
        pdbx_end_seq_num: e.seq.length,
        organism_scientific: e.src.organism,
        organism_common_name: null,
        ncbi_taxonomy_id: e.src.taxid,
        details: null,
      })),
    );
  }
  const branched = m.entities.filter((e): e is BranchedEntity => e.kind === 'branched');
  if (branched.length) {
    w.category(
      'pdbx_entity_branch',
      branched.map((e) => ({ entity_id: e.id, type: 'oligosaccharide' })),
    );
    w.category(
      'pdbx_entity_branch_descriptor',
      branched
        .flatMap((e) =>
          e.descriptors.map((d) => ({
            entity_id: e.id,
            descriptor: d.descriptor,
            type: d.type,
            program: null,
            program_version: null,
          })),
        )
        .map((r, i) => ({ ordinal: i + 1, ...r })),
    );
    w.category(
      'pdbx_entity_branch_list',
      branched.flatMap((e) => e.units.map((u, i) => ({ entity_id: e.id, comp_id: u.compId, num: i + 1, hetero: 'n' }))),
    );
    w.category(
      'pdbx_entity_branch_link',
      branched
        .flatMap((e) =>
          e.units.flatMap((u, i) =>
            u.parent === undefined
              ? []
              : [
                  {
                    entity_id: e.id,
                    entity_branch_list_num_1: i + 1,
                    comp_id_1: u.compId,
                    atom_id_1: 'C1',
                    leaving_atom_id_1: 'O1',
                    entity_branch_list_num_2: u.parent + 1,
                    comp_id_2: e.units[u.parent]!.compId,
                    atom_id_2: u.parentAtom!,
                    leaving_atom_id_2: `H${u.parentAtom!}`,
                    value_order: 'sing',
                    details: null,
                  },
                ],
          ),
        )
        .map((r, i) => ({ link_id: i + 1, ...r })),
    );
  }
  const refs = polys.filter((e) => e.uniprot);
  if (refs.length) {
    w.category(
      'struct_ref',
      refs.map((e, i) => ({
        id: i + 1,
        db_name: 'UNP',
        db_code: e.uniprot!.name,
        pdbx_db_accession: e.uniprot!.accession,
        pdbx_db_isoform: null,
        entity_id: e.id,
        pdbx_seq_one_letter_code: wrap80(e.seq.map(oneLetter).join('')),
        pdbx_align_begin: e.uniprot!.begin,
      })),
    );
    const rows: CifRow[] = [];
    const difs: CifRow[] = [];
    refs.forEach((e, i) => {
      for (const inst of m.instances.filter((x) => x.entityId === e.id)) {
        const u = e.uniprot!;
        rows.push({
          align_id: rows.length + 1,
          ref_id: i + 1,
          pdbx_PDB_id_code: id,
          pdbx_strand_id: inst.authAsymId,
          seq_align_beg: 1,
          pdbx_seq_align_beg_ins_code: null,
          seq_align_end: e.seq.length,
          pdbx_seq_align_end_ins_code: null,
          pdbx_db_accession: u.accession,
          db_align_beg: u.begin,
          pdbx_db_align_beg_ins_code: null,
          db_align_end: u.begin + e.seq.length - 1,
          pdbx_db_align_end_ins_code: null,
          pdbx_auth_seq_align_beg: String(inst.residues[0]!.authSeq),
          pdbx_auth_seq_align_end: String(inst.residues.at(-1)!.authSeq),
        });
        for (const d of u.differences ?? []) {
          difs.push({
            align_id: rows.length,
            pdbx_pdb_id_code: id,
            mon_id: e.seq[d.seqId - 1]!,
            pdbx_pdb_strand_id: inst.authAsymId,
            seq_num: d.seqId,
            pdbx_pdb_ins_code: null,
            pdbx_seq_db_name: 'UNP',
            pdbx_seq_db_accession_code: u.accession,
            db_mon_id: d.dbComp,
            pdbx_seq_db_seq_num: u.begin + d.seqId - 1,
            details: d.details,
            pdbx_auth_seq_num: inst.residues[d.seqId - 1]!.authSeq,
            pdbx_ordinal: difs.length + 1,
          });
        }
      }
    });
    w.category('struct_ref_seq', rows);
    if (difs.length) w.category('struct_ref_seq_dif', difs);
  }

  const used = [...componentIdsOf(m)].sort();
  w.category(
    'chem_comp',
    used.map((cid) => {
      const cc = comps.get(cid)!;
      return {
        id: cid,
        type: cc.type,
        mon_nstd_flag: cc.type.toLowerCase().includes('peptide linking') ? 'y' : '.',
        name: cc.name,
        pdbx_synonyms: cc.synonyms ?? null,
        formula: cc.formula,
        formula_weight: cc.weight.toFixed(3),
      };
    }),
  );

  w.category('exptl', [{ entry_id: id, method: m.method, crystals_number: isXray ? 1 : null }]);
  if (m.xray) {
    const x = m.xray;
    w.category('reflns', [
      {
        entry_id: id,
        d_resolution_high: x.resolution.toFixed(2),
        d_resolution_low: x.resLow.toFixed(2),
        number_obs: x.reflections,
        percent_possible_obs: x.completeness.toFixed(1),
        pdbx_redundancy: x.redundancy.toFixed(1),
        pdbx_netI_over_sigmaI: x.iOverSigma.toFixed(1),
        pdbx_ordinal: 1,
        pdbx_diffrn_id: '1',
      },
    ]);
    w.category('refine', [
      {
        entry_id: id,
        pdbx_refine_id: 'X-RAY DIFFRACTION',
        ls_number_reflns_obs: x.reflections,
        ls_d_res_low: x.resLow.toFixed(2),
        ls_d_res_high: x.resolution.toFixed(2),
        ls_percent_reflns_obs: x.completeness.toFixed(1),
        ls_R_factor_obs: (x.rWork * 0.95 + x.rFree * 0.05).toFixed(4),
        ls_R_factor_R_work: x.rWork.toFixed(4),
        ls_R_factor_R_free: x.rFree.toFixed(4),
        ls_percent_reflns_R_free: '5.0',
        ls_number_reflns_R_free: Math.round(x.reflections * 0.05),
        pdbx_diffrn_id: '1',
        pdbx_TLS_residual_ADP_flag: null,
      },
    ]);
  }
  if (m.em) {
    w.category('em_experiment', [{ id: 1, entry_id: id, aggregation_state: 'PARTICLE', entity_assembly_id: 1, reconstruction_method: 'SINGLE PARTICLE' }]);
    w.category('em_3d_reconstruction', [
      {
        entry_id: id,
        id: 1,
        algorithm: null,
        details: null,
        refinement_type: null,
        image_processing_id: 1,
        num_class_averages: null,
        num_particles: m.em.particles,
        resolution: m.em.resolution.toFixed(2),
        resolution_method: 'FSC 0.143 CUT-OFF',
        symmetry_type: 'POINT',
        method: null,
        nominal_pixel_size: null,
        actual_pixel_size: null,
        magnification_calibration: null,
      },
    ]);
  }
  if (m.nmr) {
    const n = m.nmr;
    w.category('pdbx_nmr_ensemble', [
      {
        entry_id: id,
        conformers_calculated_total_number: n.calculated,
        conformers_submitted_total_number: n.submitted,
        conformer_selection_criteria: n.criteria,
      },
    ]);
    w.category('pdbx_nmr_representative', [{ entry_id: id, conformer_id: n.representative, selection_criteria: 'lowest energy' }]);
    w.category('pdbx_nmr_exptl_sample_conditions', [{ conditions_id: 1, temperature: '298', pressure_units: 'atm', pressure: '1', pH: '7.0', ionic_strength: '50 mM', temperature_units: 'K' }]);
    w.category('pdbx_nmr_exptl', [
      { experiment_id: 1, conditions_id: 1, solution_id: 1, type: '2D 1H-15N HSQC', spectrometer_id: 1, sample_state: 'isotropic' },
      { experiment_id: 2, conditions_id: 1, solution_id: 1, type: '3D 1H-15N NOESY', spectrometer_id: 1, sample_state: 'isotropic' },
      { experiment_id: 3, conditions_id: 1, solution_id: 1, type: '3D 1H-13C NOESY', spectrometer_id: 1, sample_state: 'isotropic' },
    ]);
    w.category('pdbx_nmr_spectrometer', [{ spectrometer_id: 1, type: null, manufacturer: 'Bruker', model: 'AVANCE III', field_strength: '600' }]);
    w.category('pdbx_nmr_refine', [{ entry_id: id, method: n.refinementMethod, details: null, software_ordinal: 1 }]);
    w.category(
      'pdbx_nmr_software',
      n.software.map((s, i) => ({ ordinal: i + 1, classification: s.classification, name: s.name, version: null, authors: s.authors ?? null })),
    );
  }

  w.category('struct', [{ entry_id: id, title: m.title, pdbx_model_details: null, pdbx_CASP_flag: 'N', pdbx_model_type_details: null }]);
  w.category('struct_keywords', [{ entry_id: id, pdbx_keywords: m.keywords.pdbx, text: m.keywords.text }]);
  w.category(
    'struct_asym',
    m.instances.map((i) => ({
      id: i.asymId,
      pdbx_blank_PDB_chainid_flag: 'N',
      pdbx_modified: 'N',
      entity_id: i.entityId,
      details: null,
    })),
  );
  w.category(
    'pdbx_struct_assembly',
    m.assemblies.map((a) => ({
      id: a.id,
      details: a.details,
      method_details: a.methodDetails ?? null,
      oligomeric_details: a.oligomericDetails,
      oligomeric_count: a.count,
    })),
  );
  w.category(
    'pdbx_struct_assembly_gen',
    m.assemblies.flatMap((a) =>
      a.gens.map((g) => ({
        assembly_id: a.id,
        oper_expression: g.oper,
        asym_id_list: g.asyms.join(','),
      })),
    ),
  );
  w.category(
    'pdbx_struct_oper_list',
    m.operators.map((o) => ({
      id: o.id,
      type: o.type,
      name: o.name ?? null,
      symmetry_operation: o.symmetryOperation ?? null,
      'matrix[1][1]': f10(o.op.r[0][0]),
      'matrix[1][2]': f10(o.op.r[0][1]),
      'matrix[1][3]': f10(o.op.r[0][2]),
      'vector[1]': f10(o.op.t[0]),
      'matrix[2][1]': f10(o.op.r[1][0]),
      'matrix[2][2]': f10(o.op.r[1][1]),
      'matrix[2][3]': f10(o.op.r[1][2]),
      'vector[2]': f10(o.op.t[1]),
      'matrix[3][1]': f10(o.op.r[2][0]),
      'matrix[3][2]': f10(o.op.r[2][1]),
      'matrix[3][3]': f10(o.op.r[2][2]),
      'vector[3]': f10(o.op.t[2]),
    })),
  );

  if (m.conns.length) {
    const res = (p: ConnPartner) => instOf.get(p.asymId)!.residues[p.seqIndex]!;
    const xyz = (p: ConnPartner): Vec => {
      const a = res(p).models[0]!.find((x) => x.name === p.atom);
      if (!a) throw new Error(`${id}: connection atom ${p.asymId} ${p.seqIndex} ${p.atom} not found`);
      return a.xyz;
    };
    const seqLabel = (p: ConnPartner) => {
      const e = entityOf.get(instOf.get(p.asymId)!.entityId)!;
      return e.kind === 'polymer' ? res(p).seqId! : null;
    };
    const perType = new Map<string, number>();
    w.category(
      'struct_conn',
      m.conns.map((cn) => {
        const k = (perType.get(cn.type) ?? 0) + 1;
        perType.set(cn.type, k);
        const i1 = instOf.get(cn.p1.asymId)!;
        const i2 = instOf.get(cn.p2.asymId)!;
        return {
          id: `${cn.type}${k}`,
          conn_type_id: cn.type,
          pdbx_leaving_atom_flag: cn.leaving ?? null,
          pdbx_PDB_id: null,
          ptnr1_label_asym_id: i1.asymId,
          ptnr1_label_comp_id: res(cn.p1).compId,
          ptnr1_label_seq_id: seqLabel(cn.p1) ?? '.',
          ptnr1_label_atom_id: cn.p1.atom,
          pdbx_ptnr1_label_alt_id: null,
          pdbx_ptnr1_PDB_ins_code: null,
          pdbx_ptnr1_standard_comp_id: null,
          ptnr1_symmetry: '1_555',
          ptnr2_label_asym_id: i2.asymId,
          ptnr2_label_comp_id: res(cn.p2).compId,
          ptnr2_label_seq_id: seqLabel(cn.p2) ?? '.',
          ptnr2_label_atom_id: cn.p2.atom,
          pdbx_ptnr2_label_alt_id: null,
          pdbx_ptnr2_PDB_ins_code: null,
          ptnr1_auth_asym_id: i1.authAsymId,
          ptnr1_auth_comp_id: res(cn.p1).compId,
          ptnr1_auth_seq_id: res(cn.p1).authSeq,
          ptnr2_auth_asym_id: i2.authAsymId,
          ptnr2_auth_comp_id: res(cn.p2).compId,
          ptnr2_auth_seq_id: res(cn.p2).authSeq,
          ptnr2_symmetry: '1_555',
          pdbx_role: cn.role ?? null,
          pdbx_dist_value: dist(xyz(cn.p1), xyz(cn.p2)).toFixed(3),
          pdbx_value_order: 'sing',
        };
      }),
    );
    w.category(
      'struct_conn_type',
      [...perType.keys()].map((t) => ({ id: t, criteria: null, reference: null })),
    );
  }

  const elements = new Set<string>();
  for (const inst of m.instances) for (const r of inst.residues) for (const a of r.models[0]!) elements.add(a.element);
  w.category(
    'atom_type',
    [...elements].sort().map((symbol) => ({ symbol })),
  );

  // atom_site, all models; columns as archive files have them
  const lines: string[] = [];
  let serial = 0;
  for (let model = 0; model < nModels; model++) {
    for (const inst of m.instances) {
      const e = entityOf.get(inst.entityId)!;
      const het = e.kind !== 'polymer';
      for (const r of inst.residues) {
        const atoms = r.models[model] ?? r.models[0]!;
        const seq = e.kind === 'polymer' ? String(r.seqId) : '.';
        for (const a of atoms) {
          serial++;
          const name = a.name.includes("'") ? `"${a.name}"` : a.name;
          const b = (r.b ?? 30) + (['N', 'CA', 'C', 'O'].includes(a.name) ? 0 : 4);
          lines.push(
            `${het ? 'HETATM' : 'ATOM'} ${serial} ${a.element} ${name} . ${r.compId} ${inst.asymId} ${inst.entityId} ${seq} ? ${fixed(a.xyz[0], 3)} ${fixed(a.xyz[1], 3)} ${fixed(a.xyz[2], 3)} 1.00 ${b.toFixed(2)} ? ${r.authSeq} ${r.compId} ${inst.authAsymId} ${name} ${model + 1}`,
          );
        }
      }
    }
  }
  w.rawLoop(
    'atom_site',
    [
      'group_PDB',
      'id',
      'type_symbol',
      'label_atom_id',
      'label_alt_id',
      'label_comp_id',
      'label_asym_id',
      'label_entity_id',
      'label_seq_id',
      'pdbx_PDB_ins_code',
      'Cartn_x',
      'Cartn_y',
      'Cartn_z',
      'occupancy',
      'B_iso_or_equiv',
      'pdbx_formal_charge',
      'auth_seq_id',
      'auth_comp_id',
      'auth_asym_id',
      'auth_atom_id',
      'pdbx_PDB_model_num',
    ],
    lines,
  );

  // residue schemes
  const polyScheme: CifRow[] = [];
  const nonpolyScheme: CifRow[] = [];
  const branchScheme: CifRow[] = [];
  for (const inst of m.instances) {
    const e = entityOf.get(inst.entityId)!;
    inst.residues.forEach((r, i) => {
      if (e.kind === 'polymer') {
        polyScheme.push({
          asym_id: inst.asymId,
          entity_id: e.id,
          seq_id: r.seqId,
          mon_id: r.compId,
          ndb_seq_num: r.seqId,
          pdb_seq_num: r.authSeq,
          auth_seq_num: r.authSeq,
          pdb_mon_id: r.compId,
          auth_mon_id: r.compId,
          pdb_strand_id: inst.authAsymId,
          pdb_ins_code: '.',
          hetero: 'n',
        });
      } else if (e.kind === 'branched') {
        branchScheme.push({
          asym_id: inst.asymId,
          entity_id: e.id,
          mon_id: r.compId,
          num: i + 1,
          pdb_asym_id: inst.authAsymId,
          pdb_mon_id: r.compId,
          pdb_seq_num: r.authSeq,
          auth_asym_id: inst.authAsymId,
          auth_mon_id: r.compId,
          auth_seq_num: r.authSeq,
          hetero: 'n',
        });
      } else {
        nonpolyScheme.push({
          asym_id: inst.asymId,
          entity_id: e.id,
          mon_id: r.compId,
          ndb_seq_num: i + 1,
          pdb_seq_num: r.authSeq,
          auth_seq_num: r.authSeq,
          pdb_mon_id: r.compId,
          auth_mon_id: r.compId,
          pdb_strand_id: inst.authAsymId,
          pdb_ins_code: '.',
        });
      }
    });
  }
  w.category('pdbx_poly_seq_scheme', polyScheme);
  w.category('pdbx_branch_scheme', branchScheme);
  w.category('pdbx_nonpoly_scheme', nonpolyScheme);
  return w.toString();
}

/** `space_group_name_H_M` is spelt with a hyphen in the dictionary. */
function renameHM(row: CifRow): CifRow {
  const out: CifRow = {};
  for (const [k, v] of Object.entries(row)) out[k.replace('name_H_M', 'name_H-M')] = v;
  return out;
}
