/**
 * GENERATED mmCIF entries for the file-host benchmark: one polymer chain of glycines (N, CA, C, O
 * per residue) with made-up coordinates. Not real entries; only their size matters here.
 */
export function generatedEntry(id: string, atoms: number): string {
  const residues = Math.ceil(atoms / 4);
  const out = [
    `data_${id}`,
    '#',
    `_entry.id ${id}`,
    '#',
    `_struct.title 'GENERATED BENCHMARK ENTRY'`,
    '#',
    '_entity.id 1',
    '_entity.type polymer',
    "_entity.pdbx_description 'Generated protein'",
    '#',
    '_entity_poly.entity_id 1',
    "_entity_poly.type 'polypeptide(L)'",
    '_entity_poly.pdbx_strand_id A',
    `_entity_poly.pdbx_seq_one_letter_code_can ${'G'.repeat(Math.min(residues, 60))}`,
    '#',
    '_struct_asym.id A',
    '_struct_asym.entity_id 1',
    '#',
    '_pdbx_struct_assembly_gen.assembly_id 1',
    '_pdbx_struct_assembly_gen.oper_expression 1',
    '_pdbx_struct_assembly_gen.asym_id_list A',
    '#',
    '_pdbx_struct_oper_list.id 1',
    "_pdbx_struct_oper_list.type 'identity operation'",
    ...[1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `_pdbx_struct_oper_list.matrix[${i}][${j}] ${i === j ? 1 : 0}`)),
    ...[1, 2, 3].map((i) => `_pdbx_struct_oper_list.vector[${i}] 0`),
    '#',
    'loop_',
  ];
  for (const f of [
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
  ]) {
    out.push(`_atom_site.${f}`);
  }
  let n = 0;
  for (let r = 1; n < atoms; r++) {
    for (const [ai, name] of ['N', 'CA', 'C', 'O'].entries()) {
      if (n >= atoms) break;
      n++;
      const x = ((r * 1.53 + ai * 0.41) % 180) - 90;
      const y = ((r * 0.77 + ai * 1.1) % 120) - 60;
      const z = ((r * 0.13 + ai) % 80) - 40;
      out.push(`ATOM ${n} ${name[0]} ${name} . GLY A 1 ${r} ? ${x.toFixed(3)} ${y.toFixed(3)} ${z.toFixed(3)} 1.00 ${(10 + (r % 50)).toFixed(2)} ? ${r} GLY A ${name} 1`);
    }
  }
  out.push('#', '');
  return out.join('\n');
}
