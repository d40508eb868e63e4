/**
 * The legacy PDB format's primary-structure and heterogen sections: DBREF (the sequence database
 * references; Biopython's `pdb-seqres` reader names its records from them), SEQRES (the deposited
 * sequence of each chain, read by that reader and many pipelines), HET and HETNAM.
 * SEQRES comes from pdbx_poly_seq_scheme (the first residue of a microheterogeneous position, as
 * the archive writes it); HET counts each non-water HETATM residue's atoms in the models written.
 */
import type { CifBlock } from 'molstar/lib/mol-io/reader/cif.js';
import { col, hetatmRows, type AtomSite } from './table.js';

const pad80 = (s: string) => (s.length >= 80 ? s.slice(0, 80) : s.padEnd(80));
const PER_LINE = 13;
const WATERS = new Set(['HOH', 'DOD']);

/**
 * DBREF records from struct_ref_seq and struct_ref. References whose accession or code do not fit
 * the one-line record (the archive writes DBREF1/DBREF2 for those) are left out.
 */
export function dbrefRecords(block: CifBlock, idCode: string, out: string[]): void {
  const seq = block.categories.struct_ref_seq;
  const ref = block.categories.struct_ref;
  if (!seq || !ref) return;
  const refs = new Map<string, { db: string; code: string }>();
  const rid = col(ref, 'id');
  const dbName = col(ref, 'db_name');
  const dbCode = col(ref, 'db_code');
  for (let i = 0; i < ref.rowCount; i++) refs.set(rid.str(i), { db: dbName.str(i), code: dbCode.str(i) });
  const c = (n: string) => col(seq, n);
  const refId = c('ref_id');
  const strand = c('pdbx_strand_id');
  const acc = c('pdbx_db_accession');
  // Author numbering on the entry's side, as the legacy records number residues.
  const place = (num: string, ins: string, i: number) => `${c(num).str(i).padStart(4)}${c(ins).str(i) || ' '}`;
  const dbPlace = (num: string, ins: string, i: number) => `${c(num).str(i).padStart(5)}${c(ins).str(i) || ' '}`;
  for (let i = 0; i < seq.rowCount; i++) {
    const r = refs.get(refId.str(i));
    const chain = strand.str(i);
    if (!r || chain.length !== 1 || acc.str(i).length > 8 || r.code.length > 12) continue;
    out.push(
      pad80(
        `DBREF  ${idCode.padEnd(4).slice(0, 4)} ${chain} ${place('pdbx_auth_seq_align_beg', 'pdbx_seq_align_beg_ins_code', i)} ` +
          `${place('pdbx_auth_seq_align_end', 'pdbx_seq_align_end_ins_code', i)} ${r.db.padEnd(6)} ${acc.str(i).padEnd(8)} ${r.code.padEnd(12)} ` +
          `${dbPlace('db_align_beg', 'pdbx_db_align_beg_ins_code', i)} ${dbPlace('db_align_end', 'pdbx_db_align_end_ins_code', i)}`,
      ),
    );
  }
}

/** SEQRES records, chains in the order the scheme lists them; nothing when the block has no scheme. */
export function seqresRecords(block: CifBlock, out: string[]): void {
  const s = block.categories.pdbx_poly_seq_scheme;
  if (!s) return;
  const strand = col(s, 'pdb_strand_id');
  const asym = col(s, 'asym_id');
  const seq = col(s, 'seq_id');
  const mon = col(s, 'mon_id');
  const chains = new Map<string, string[]>();
  let lastKey = '';
  for (let i = 0; i < s.rowCount; i++) {
    const chain = strand.str(i) || asym.str(i);
    const key = `${asym.str(i)}\u0000${seq.str(i)}`;
    if (key === lastKey) continue; // a second residue at one position (microheterogeneity)
    lastKey = key;
    let list = chains.get(chain);
    if (!list) chains.set(chain, (list = []));
    list.push(mon.str(i));
  }
  for (const [chain, residues] of chains) {
    if (chain.length > 1) continue; // written only where the format holds the chain (checked by the caller)
    for (let k = 0, n = 1; k < residues.length; k += PER_LINE, n++) {
      const names = residues
        .slice(k, k + PER_LINE)
        .map((r) => r.padStart(3))
        .join(' ');
      out.push(pad80(`SEQRES ${String(n).padStart(3)} ${chain} ${String(residues.length).padStart(4)}  ${names}`));
    }
  }
}

/** HET records of the rows written (the first model's), then HETNAM for each heterogen named in chem_comp. */
export function hetRecords(block: CifBlock, a: AtomSite, rows: ArrayLike<number>, out: string[]): void {
  const groups = new Map<string, { name: string; chain: string; seq: string; ins: string; atoms: number }>();
  const isHet = hetatmRows(block, a);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k] as number;
    if (!isHet(r)) continue;
    const name = a.authComp.str(r);
    if (WATERS.has(name)) continue;
    const key = `${a.authAsym.str(r)}\u0000${a.authSeq.str(r)}\u0000${a.insCode.str(r)}\u0000${name}`;
    const g = groups.get(key);
    if (g) g.atoms++;
    else groups.set(key, { name, chain: a.authAsym.str(r) || ' ', seq: a.authSeq.str(r), ins: a.insCode.str(r) || ' ', atoms: 1 });
  }
  const order: string[] = [];
  for (const g of groups.values()) {
    out.push(pad80(`HET    ${g.name.padStart(3)}  ${g.chain}${g.seq.padStart(4)}${g.ins}  ${String(g.atoms).padStart(5)}`));
    if (!order.includes(g.name)) order.push(g.name);
  }
  const comps = block.categories.chem_comp;
  if (!comps) return;
  const id = col(comps, 'id');
  const fullName = col(comps, 'name');
  const names = new Map<string, string>();
  for (let i = 0; i < comps.rowCount; i++) names.set(id.str(i), fullName.str(i));
  for (const het of order) {
    const text = names.get(het)?.toUpperCase().replace(/\s+/g, ' ').trim();
    if (!text) continue;
    // Text in columns 16-70, continued over numbered lines.
    const words = text.split(' ');
    let line = '';
    let n = 1;
    const flush = () => {
      out.push(pad80(`HETNAM  ${n === 1 ? '  ' : String(n).padStart(2)} ${het.padStart(3)} ${line}`));
      n++;
      line = '';
    };
    for (const w of words) {
      if (line && line.length + 1 + w.length > 55) flush();
      line = line ? `${line} ${w}` : w.slice(0, 55);
    }
    if (line) flush();
  }
}
