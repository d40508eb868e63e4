import { compact, copyCategories, revisions } from './common.js';
import { composition, naTypes, selectedTypes } from './entry.js';
import type { PartDocument } from './entity.js';
import { polymerType, type StructureModel } from './model.js';
import { parseOperExpression } from '../../../core/mmcif/index.js';

/** One assembly: its generators and operators as the file has them, and what it contains. */
export function assemblyDocument(m: StructureModel, assemblyId: string): PartDocument {
  const { entry } = m;
  const gen = entry.table('pdbx_struct_assembly_gen');
  const genRows = gen.where('assembly_id', assemblyId);
  const usedOps = new Set<string>();
  // How many copies of each asym the assembly holds.
  const copies = new Map<string, number>();
  for (const r of genRows) {
    // Copies of each listed chain: the product of the expression's groups of operators.
    let copiesOf = 0;
    try {
      const groups = parseOperExpression(gen.str('oper_expression', r) ?? '');
      copiesOf = groups.reduce((n, g) => n * g.length, 1);
      for (const g of groups) for (const op of g) usedOps.add(op);
    } catch {
      copiesOf = 0;
    }
    for (const asym of (gen.str('asym_id_list', r) ?? '').split(',')) {
      const a = asym.trim();
      if (a) copies.set(a, (copies.get(a) ?? 0) + copiesOf);
    }
  }
  const doc: Record<string, unknown> = {};
  const opList = entry.table('pdbx_struct_oper_list');
  copyCategories(entry, 'assembly', doc, (cat) => {
    if (cat === 'pdbx_struct_assembly') return entry.table(cat).where('id', assemblyId);
    if (cat === 'pdbx_struct_assembly_gen') return genRows;
    if (cat === 'pdbx_struct_assembly_prop') return entry.table(cat).where('biol_id', assemblyId);
    if (cat === 'pdbx_struct_assembly_auth_evidence') return entry.table(cat).where('assembly_id', assemblyId);
    if (cat === 'pdbx_struct_oper_list') {
      const rows: number[] = [];
      for (let r = 0; r < opList.rows; r++) if (usedOps.has(opList.str('id', r) ?? '')) rows.push(r);
      return rows;
    }
    return [];
  });
  const asm = doc.pdbx_struct_assembly as Record<string, unknown> | undefined;
  if (asm) {
    asm.rcsb_candidate_assembly = 'Y';
    if (typeof asm.details === 'string') asm.rcsb_details = asm.details;
  }
  const gens = doc.pdbx_struct_assembly_gen as Record<string, unknown>[] | undefined;
  gens?.forEach((g, i) => {
    g.ordinal = i + 1;
  });

  let atoms = 0;
  let hydrogens = 0;
  let polymerAtoms = 0;
  let nonpolymerAtoms = 0;
  let branchedAtoms = 0;
  let solventAtoms = 0;
  let modeled = 0;
  let monomers = 0;
  const polymerEntities = new Set<string>();
  const nonpolymerEntities = new Set<string>();
  const branchedEntities = new Set<string>();
  const solventEntities = new Set<string>();
  const instCount = { polymer: 0, nonpolymer: 0, branched: 0, solvent: 0 };
  const instByType: Record<string, number> = { Protein: 0, DNA: 0, RNA: 0, 'NA-hybrid': 0 };
  for (const [asymId, n] of copies) {
    const a = m.asyms.get(asymId);
    const e = a ? m.entities.get(a.entityId) : undefined;
    if (!a || !e) continue;
    atoms += a.atoms * n;
    hydrogens += a.hydrogens * n;
    if (e.kind === 'polymer') {
      polymerAtoms += a.atoms * n;
      modeled += a.modeledResidues * n;
      monomers += e.seqLength * n;
      polymerEntities.add(e.id);
      instCount.polymer += n;
      const t = polymerType(e.polyType);
      if (t in instByType) instByType[t] = (instByType[t] ?? 0) + n;
    } else if (e.kind === 'branched') {
      branchedAtoms += a.atoms * n;
      branchedEntities.add(e.id);
      instCount.branched += n;
    } else if (e.kind === 'water') {
      solventAtoms += a.atoms * n;
      solventEntities.add(e.id);
      instCount.solvent += n;
    } else {
      nonpolymerAtoms += a.atoms * n;
      nonpolymerEntities.add(e.id);
      instCount.nonpolymer += n;
    }
  }
  const entityTypes = [...polymerEntities].map((id) => polymerType(m.entities.get(id)?.polyType));
  const count = (t: string) => entityTypes.filter((x) => x === t).length;
  const protein = count('Protein');
  const dna = count('DNA');
  const rna = count('RNA');
  const hybrid = count('NA-hybrid');

  doc.rcsb_assembly_container_identifiers = { assembly_id: assemblyId, entry_id: m.id, rcsb_id: `${m.id}-${assemblyId}` };
  doc.rcsb_assembly_info = compact({
    assembly_id: assemblyId,
    atom_count: atoms,
    branched_atom_count: branchedAtoms,
    branched_entity_count: branchedEntities.size,
    branched_entity_instance_count: instCount.branched,
    deuterated_water_count: 0,
    entry_id: m.id,
    hydrogen_atom_count: hydrogens,
    modeled_polymer_monomer_count: modeled,
    na_polymer_entity_types: naTypes(dna, rna, hybrid),
    nonpolymer_atom_count: nonpolymerAtoms,
    nonpolymer_entity_count: nonpolymerEntities.size,
    nonpolymer_entity_instance_count: instCount.nonpolymer,
    polymer_atom_count: polymerAtoms,
    polymer_composition: composition(protein, dna, rna, hybrid, branchedEntities.size, polymerEntities.size),
    polymer_entity_count: polymerEntities.size,
    polymer_entity_count_DNA: dna,
    polymer_entity_count_RNA: rna,
    polymer_entity_count_nucleic_acid: dna + rna + hybrid,
    polymer_entity_count_nucleic_acid_hybrid: hybrid,
    polymer_entity_count_protein: protein,
    polymer_entity_instance_count: instCount.polymer,
    polymer_entity_instance_count_DNA: instByType.DNA,
    polymer_entity_instance_count_RNA: instByType.RNA,
    polymer_entity_instance_count_nucleic_acid: (instByType.DNA ?? 0) + (instByType.RNA ?? 0) + (instByType['NA-hybrid'] ?? 0),
    polymer_entity_instance_count_nucleic_acid_hybrid: instByType['NA-hybrid'],
    polymer_entity_instance_count_protein: instByType.Protein,
    polymer_monomer_count: monomers,
    // The assembly schema's enum has no oligosaccharide categories (the entry's has): branched entities are not counted here.
    selected_polymer_entity_types: selectedTypes(protein, dna + rna + hybrid, 0, polymerEntities.size),
    solvent_atom_count: solventAtoms,
    solvent_entity_count: solventEntities.size,
    solvent_entity_instance_count: instCount.solvent,
    unmodeled_polymer_monomer_count: monomers - modeled,
  });
  const { latest } = revisions(entry);
  if (latest) doc.rcsb_latest_revision = { major_revision: latest.major, minor_revision: latest.minor };
  doc.rcsb_id = `${m.id}-${assemblyId}`;
  return { kind: 'assembly', key: assemblyId, doc: compact(doc) };
}
