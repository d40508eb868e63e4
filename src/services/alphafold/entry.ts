/**
 * One entry's files made into the record the store keeps: the model read with Mol* (its UniProt
 * fields and pLDDT), the confidence file checked (or made from the model's pLDDT), the PAE file
 * checked and brought to the current form. Runs in the ingest threads (ingest-pool.ts) or in place.
 */
import { gzipSync } from 'node:zlib';
import { crc64, md5 } from './checksum.js';
import { confidenceOf, parseConfidence, plddtSummary, type PlddtSummary } from './confidence.js';
import { gunzipBounded, isGzip, readModelFacts, type ModelFacts } from './model-cif.js';
import { normalizePae } from './pae.js';

/** What the store keeps of a model beside its files (the record is built from it when asked). */
export interface ModelDoc {
  accession: string;
  uniprotId: string | null;
  description: string | null;
  gene: string | null;
  taxId: number | null;
  organism: string | null;
  uniprotStart: number;
  uniprotEnd: number;
  sequence: string;
  sequenceVersionDate: string | null;
  created: string | null;
  summary: PlddtSummary;
  /** UniProt's CRC64 (version 4 records) and the MD5 (version 6) of the sequence. */
  crc64: string;
  md5: string;
  residues: number;
  atoms: number;
}

export interface ModelRecord {
  kind: 'model';
  entryId: string;
  version: number;
  accession: string;
  fragment: number;
  doc: ModelDoc;
  /** Files, gzipped. */
  model: Buffer;
  confidence: Buffer;
  pae: Buffer | null;
}

/** UniProt-based entry ids: the accession (with an isoform number) and the fragment. */
export const UNIPROT_ENTRY = /^AF-([A-Z0-9]{6,10}(?:-\d+)?)-F(\d+)$/;

export interface Part {
  bytes: Buffer;
  place: { file: string; position: string | number };
}

export interface Pending {
  model?: Part;
  confidence?: Part;
  pae?: Part;
}

const gz = (b: Buffer) => (isGzip(b) ? b : gzipSync(b));
const plain = (b: Buffer) => (isGzip(b) ? gunzipBounded(b) : b);

export async function modelRecord(entryId: string, version: number, p: Pending): Promise<ModelRecord> {
  const model = p.model as Part;
  const facts: ModelFacts = await readModelFacts(model.bytes);
  const m = UNIPROT_ENTRY.exec(entryId);
  const accession = m?.[1] ?? facts.accession;
  if (!accession) throw new Error('no UniProt accession in the entry id or the model file');
  const fragment = m ? Number(m[2]) : 1;
  // Without a confidence file, the pLDDT the model carries (ma_qa_metric_local or its B-factors).
  const conf = p.confidence ? parseConfidence(plain(p.confidence.bytes).toString('utf8')) : confidenceOf(facts.plddt);
  if (conf.confidenceScore.length === 0) throw new Error('no confidence file and no pLDDT in the model');
  const confBytes = p.confidence ? gz(p.confidence.bytes) : gzipSync(JSON.stringify(conf));
  const residues = conf.confidenceScore.length;
  let pae: Buffer | null = null;
  if (p.pae) {
    const raw = plain(p.pae.bytes);
    const loaded = normalizePae(raw);
    if (loaded.n !== residues) throw new Error(`the PAE matrix has ${loaded.n} residues, the confidence file ${residues}`);
    pae = loaded.bytes === raw ? gz(p.pae.bytes) : gzipSync(loaded.bytes);
  }
  const sequence = facts.sequence;
  const start = facts.uniprotStart ?? 1;
  return {
    kind: 'model',
    entryId,
    version,
    accession,
    fragment,
    model: gz(model.bytes),
    confidence: confBytes,
    pae,
    doc: {
      accession,
      uniprotId: facts.uniprotId,
      description: facts.description,
      gene: facts.gene,
      taxId: facts.taxId,
      organism: facts.organism,
      uniprotStart: start,
      uniprotEnd: facts.uniprotEnd ?? start + (sequence.length || residues) - 1,
      sequence,
      sequenceVersionDate: facts.sequenceVersionDate,
      created: facts.created,
      summary: plddtSummary(conf.confidenceScore),
      crc64: crc64(sequence),
      md5: md5(sequence),
      residues,
      atoms: facts.atoms,
    },
  };
}
