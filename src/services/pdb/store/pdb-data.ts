/**
 * Reads of the loaded structure data, shared by the REST and GraphQL interfaces and the file
 * hosts. Knows nothing of HTTP; ids arrive as clients wrote them and are normalised here.
 */
import { tableSet, type TableSet } from '../../../core/ingest/dataset.js';
import { fileStoreOf } from '../../../core/files/store.js';
import { SizedLru } from '../../../core/cache/lru.js';
import type { Db } from '../../../core/store/db.js';
import type { Generations } from '../../../core/store/generations.js';
import { localChemComp } from '../documents/chem-comp.js';
import type { ObjectKind } from '../documents/index.js';
import { documentJson } from '../documents/float-json.js';
import type { ComponentDictionary } from '../files/source.js';
import * as store from './tables.js';
import { ARCHIVE, ARCHIVE_PREFIX, CCD_PREFIX, COMPONENTS, SERVICE, SIFTS, SIFTS_PREFIX, type SiftsRow } from './tables.js';

export type Doc = Record<string, unknown>;

/** Which part kinds an entry id and key form an rcsb_id with, and how. */
export const PART_ID: Record<ObjectKind, (entry: string, key: string) => string> = {
  polymer_entity: (e, k) => `${e}_${k}`,
  nonpolymer_entity: (e, k) => `${e}_${k}`,
  branched_entity: (e, k) => `${e}_${k}`,
  polymer_entity_instance: (e, k) => `${e}.${k}`,
  nonpolymer_entity_instance: (e, k) => `${e}.${k}`,
  branched_entity_instance: (e, k) => `${e}.${k}`,
  assembly: (e, k) => `${e}-${k}`,
};

/** `4hhb_1`, `4HHB.A`, `4HHB-1` → entry (upper case) and key (as written: chain ids are case-sensitive). */
export function splitPartId(kind: ObjectKind, id: string): { entry: string; key: string } | undefined {
  const sep = kind.endsWith('_instance') ? '.' : kind === 'assembly' ? '-' : '_';
  const i = id.indexOf(sep);
  if (i <= 0 || i === id.length - 1) return undefined;
  return { entry: id.slice(0, i).toUpperCase(), key: id.slice(i + 1) };
}

/**
 * Entry documents (parsed for GraphQL, which reads many per query and spends most of its time
 * parsing them; as text for REST), most recently used last, bounded by the size of their JSON text.
 * Keyed by generation, so a new load is never answered from an older one.
 */
const ENTRY_CACHE_BYTES = Number(process.env.BIOMIRROR_PDB_CACHE_MB ?? 128) * 1024 * 1024;

export class PdbData {
  private readonly cache = new SizedLru<Doc>(ENTRY_CACHE_BYTES);
  // The same documents as stored, for REST, which sends them as they are: kept as UTF-8 bytes, so
  // that an answer is neither measured nor encoded again.
  private readonly bodies = new SizedLru<Buffer>(ENTRY_CACHE_BYTES / 2);

  constructor(
    readonly db: Db,
    private readonly generations: Generations,
  ) {}

  private async tables(dataset: string, prefix: string): Promise<TableSet | undefined> {
    const gen = await this.generations.active(SERVICE, dataset);
    return gen === undefined ? undefined : tableSet(prefix, gen);
  }

  archive(): Promise<TableSet | undefined> {
    return this.tables(ARCHIVE, ARCHIVE_PREFIX);
  }

  /** The entry document as served (JSON text in UTF-8, numbers as the real service writes them), or undefined; recent ones are answered from memory. */
  async entryBody(id: string): Promise<Buffer | undefined> {
    const t = await this.archive();
    if (!t) return undefined;
    const upper = id.toUpperCase();
    const key = `${t.gen}:${upper}`;
    const hit = this.bodies.get(key);
    if (hit !== undefined) return hit;
    const text = (await store.entryRow(this.db, t, upper))?.doc;
    if (text === undefined) return undefined;
    const body = Buffer.from(documentJson('entry', JSON.parse(text)), 'utf8');
    this.bodies.set(key, body, body.length);
    return body;
  }

  /** Entry documents by id (parsed, shared: callers must not change them). */
  async entries(ids: readonly string[]): Promise<Map<string, Doc>> {
    const t = await this.archive();
    const out = new Map<string, Doc>();
    if (!t) return out;
    const missing: string[] = [];
    for (const raw of new Set(ids.map((i) => i.toUpperCase()))) {
      const hit = this.cache.get(`${t.gen}:${raw}`);
      if (hit) out.set(raw, hit);
      else missing.push(raw);
    }
    if (missing.length === 0) return out;
    const texts = await store.entryDocs(this.db, t, missing);
    for (const [id, text] of texts) {
      const doc = JSON.parse(text) as Doc;
      this.cache.set(`${t.gen}:${id}`, doc, text.length);
      out.set(id, doc);
    }
    return out;
  }

  /** A part by kind and rcsb id, with what other datasets add (UniProt ids from SIFTS). */
  async part(kind: ObjectKind, entry: string, key: string): Promise<Doc | undefined> {
    const t = await this.archive();
    if (!t) return undefined;
    const text = await store.partDoc(this.db, t, kind, PART_ID[kind](entry.toUpperCase(), key));
    if (text === undefined) return undefined;
    const doc = JSON.parse(text) as Doc;
    if (kind === 'polymer_entity') await this.addUniprot([doc]);
    return doc;
  }

  async parts(kind: ObjectKind, rcsbIds: readonly string[]): Promise<Map<string, Doc>> {
    const t = await this.archive();
    const out = new Map<string, Doc>();
    if (!t) return out;
    const normal = rcsbIds.map((id) => {
      const s = splitPartId(kind, id);
      return s ? PART_ID[kind](s.entry, s.key) : id;
    });
    const texts = await store.partDocs(this.db, t, kind, normal);
    for (const [id, text] of texts) out.set(id, JSON.parse(text) as Doc);
    if (kind === 'polymer_entity') await this.addUniprot([...out.values()]);
    return out;
  }

  async partsOfEntry(entry: string, kind: ObjectKind): Promise<Doc[]> {
    const t = await this.archive();
    if (!t) return [];
    const docs = (await store.partsOfEntry(this.db, t, entry.toUpperCase(), kind)).map((s) => JSON.parse(s) as Doc);
    if (kind === 'polymer_entity') await this.addUniprot(docs);
    return docs;
  }

  /** SIFTS rows of an entry's polymer entity, where the mapping is loaded. */
  async siftsOfEntity(entry: string, entityId: string): Promise<SiftsRow[]> {
    const [archive, sifts] = await Promise.all([this.archive(), this.tables(SIFTS, SIFTS_PREFIX)]);
    if (!archive || !sifts) return [];
    const chains = await store.chainsOfEntry(this.db, archive, entry);
    const auth = new Set(chains.filter((c) => c.entity_id === entityId).map((c) => c.auth_id ?? c.asym_id));
    return (await store.siftsOfEntry(this.db, sifts, entry)).filter((r) => auth.has(r.chain));
  }

  /**
   * `uniprot_ids`, `reference_sequence_identifiers` and `rcsb_polymer_entity_align` from SIFTS, as
   * the Data API has them: one alignment per accession, its regions the SIFTS segments.
   */
  private async addUniprot(docs: Doc[]): Promise<void> {
    for (const doc of docs) {
      const ids = doc.rcsb_polymer_entity_container_identifiers as Doc | undefined;
      if (!ids) continue;
      const rows = await this.siftsOfEntity(String(ids.entry_id), String(ids.entity_id));
      const accessions = [...new Set(rows.map((r) => r.accession))];
      if (accessions.length === 0) continue;
      ids.uniprot_ids = accessions;
      ids.reference_sequence_identifiers = accessions.map((a) => ({ database_accession: a, database_name: 'UniProt', provenance_source: 'SIFTS' }));
      doc.rcsb_polymer_entity_align = accessions.map((a) => {
        const regions = alignedRegions(rows.filter((r) => r.accession === a));
        const align: Doc = { provenance_source: 'SIFTS', reference_database_accession: a, reference_database_name: 'UniProt' };
        if (regions.length) align.aligned_regions = regions;
        return align;
      });
    }
  }

  async uniprotOfEntity(entry: string, entityId: string): Promise<Doc[]> {
    const rows = await this.siftsOfEntity(entry.toUpperCase(), entityId);
    return [...new Set(rows.map((r) => r.accession))].map(uniprotDoc);
  }

  /** SIFTS segments of a UniProt accession across the loaded entries (none without SIFTS). */
  async siftsByAccession(accession: string): Promise<SiftsRow[]> {
    const sifts = await this.tables(SIFTS, SIFTS_PREFIX);
    return sifts ? store.siftsByAccession(this.db, sifts, accession.toUpperCase()) : [];
  }

  /** The description of the polymer entity an author chain belongs to. */
  async entityOfChain(entry: string, authChain: string): Promise<string | undefined> {
    const t = await this.archive();
    if (!t) return undefined;
    const chain = (await store.chainsOfEntry(this.db, t, entry)).find((c) => (c.auth_id ?? c.asym_id) === authChain);
    if (!chain) return undefined;
    const doc = await this.part('polymer_entity', entry, chain.entity_id);
    return (doc?.rcsb_polymer_entity as Doc | undefined)?.pdbx_description as string | undefined;
  }

  async uniprot(accession: string): Promise<Doc | undefined> {
    const sifts = await this.tables(SIFTS, SIFTS_PREFIX);
    if (!sifts) return undefined;
    const rows = await store.siftsByAccession(this.db, sifts, accession.toUpperCase());
    return rows.length ? uniprotDoc(accession.toUpperCase()) : undefined;
  }

  /** The PubMed object of an entry's primary citation. */
  async pubmedOfEntry(entry: string): Promise<Doc | undefined> {
    const body = await this.entryBody(entry);
    return body ? pubmedDoc(JSON.parse(body.toString('utf8')) as Doc) : undefined;
  }

  async pubmed(pmid: number): Promise<Doc | undefined> {
    const t = await this.archive();
    if (!t) return undefined;
    const [text] = await store.entriesByPubmed(this.db, t, pmid);
    return text ? pubmedDoc(JSON.parse(text) as Doc) : undefined;
  }

  /** A chemical component: from the dictionary where loaded, else as the entry files describe it. */
  async chemComp(id: string): Promise<Doc | undefined> {
    const compId = id.toUpperCase();
    const ccd = await this.tables(COMPONENTS, CCD_PREFIX);
    if (ccd) {
      const text = await store.ccdDoc(this.db, ccd, compId);
      if (text) return JSON.parse(text) as Doc;
    }
    const t = await this.archive();
    if (!t) return undefined;
    const local = await store.localComponent(this.db, t, compId);
    return local ? localChemComp(JSON.parse(local)) : undefined;
  }

  /** The loaded dictionary's bonds, named by its generation; undefined when no dictionary is loaded. */
  async componentDictionary(): Promise<ComponentDictionary | undefined> {
    const ccd = await this.tables(COMPONENTS, CCD_PREFIX);
    if (!ccd) return undefined;
    return { tag: `cc${ccd.gen}`, bonds: (ids) => store.ccdBonds(this.db, ccd, ids) };
  }

  async entryIds(): Promise<string[]> {
    const t = await this.archive();
    return t ? store.entryIds(this.db, t) : [];
  }

  async ccdIds(): Promise<string[]> {
    const ccd = await this.tables(COMPONENTS, CCD_PREFIX);
    if (ccd) return store.ccdIds(this.db, ccd);
    const t = await this.archive();
    return t ? store.localComponentIds(this.db, t) : [];
  }

  /** The entry's files as loaded (gzip bytes), for the file hosts. */
  async entryFiles(id: string): Promise<{ cif: Buffer | undefined; sf: Buffer | undefined } | undefined> {
    const t = await this.archive();
    if (!t) return undefined;
    const row = await store.entryRow(this.db, t, id.toUpperCase());
    if (!row) return undefined;
    const files = fileStoreOf(this.db);
    return { cif: await files.get(row.file_key), sf: row.sf_key ? await files.get(row.sf_key) : undefined };
  }
}

function pubmedDoc(entry: Doc): Doc | undefined {
  const c = entry.rcsb_primary_citation as Doc | undefined;
  const pmid = c?.pdbx_database_id_PubMed;
  if (typeof pmid !== 'number') return undefined;
  const doc: Doc = { rcsb_id: String(pmid), rcsb_pubmed_container_identifiers: { pubmed_id: pmid } };
  if (typeof c?.pdbx_database_id_DOI === 'string') doc.rcsb_pubmed_doi = c.pdbx_database_id_DOI;
  return doc;
}

/** SIFTS segments as the Data API's aligned regions (several chains of an entity give the same ones). */
function alignedRegions(rows: SiftsRow[]): Doc[] {
  const seen = new Set<string>();
  const out: Doc[] = [];
  for (const r of rows) {
    if (r.sp_beg === null || r.sp_end === null || r.res_beg === null) continue;
    const region = { entity_beg_seq_id: r.res_beg, length: r.sp_end - r.sp_beg + 1, ref_beg_seq_id: r.sp_beg };
    const k = JSON.stringify(region);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(region);
  }
  return out.sort((a, b) => Number(a.entity_beg_seq_id) - Number(b.entity_beg_seq_id));
}

/**
 * The UniProt object as far as SIFTS describes it: the accession. Its `rcsb_uniprot_alignments`
 * are left out: each alignment requires scores with the UniProt sequence's length, which SIFTS'
 * chain table does not give (the segments are in the polymer entity's `rcsb_polymer_entity_align`).
 */
function uniprotDoc(accession: string): Doc {
  return { rcsb_id: accession, rcsb_uniprot_container_identifiers: { uniprot_id: accession }, rcsb_uniprot_accession: [accession] };
}
