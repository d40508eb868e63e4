/**
 * The searchable fields of a database, as einfo lists them and as field tags name them. A field is
 * one or more sub-fields of the posting index: keyword sub-fields hold whole values (a symbol, a
 * clinical significance), text sub-fields hold words.
 */
export type SubKind = 'keyword' | 'text';

export interface SubField {
  code: number;
  kind: SubKind;
}

/** What a search term is matched against: terms of some sub-fields, or a prefix of them. */
export interface Atom {
  k: 'atom';
  fields: number[];
  terms: string[];
  prefix: boolean;
}

export type CNode = Atom | { k: 'and' | 'or'; c: CNode[] } | { k: 'not'; a: CNode; b: CNode } | { k: 'uid'; ids: number[] };

/** A phrase turned into index terms by a field of its own making (organism names into taxonomy ids). */
export interface Resolved {
  node: CNode;
  /** How the translation shows it, e.g. `"Homo sapiens"[Organism]`. */
  translation: string;
}

export interface FieldDef {
  /** einfo's short name (GENE, ORGN). */
  name: string;
  /** The name translations show (`BRCA1[Gene Name]`). */
  fullName: string;
  description: string;
  /** Tags that select it, lower case (`gene`, `gene name`, `sym`). */
  tags: readonly string[];
  subs: readonly SubField[];
  /** Searched by untagged terms ([All Fields]); default yes. */
  inAll?: boolean;
  /** Shown as Explode=Y in the translation stack (organisms include subordinate taxa). */
  explode?: boolean;
  numerical?: boolean;
  singleToken?: boolean;
  /** The record identifier itself (`672[uid]`). */
  uid?: boolean;
  /** Terms of this field are looked up elsewhere (organism names); undefined when unknown. */
  resolve?(phrase: string, ctx: ResolveContext): Promise<Resolved | undefined>;
}

export interface ResolveContext {
  /** A taxon by name or number, with the ids a search of it includes. */
  taxon(name: string): Promise<{ taxIds: number[]; scientific: string } | undefined>;
}

export interface Database {
  name: string;
  fields: readonly FieldDef[];
}

export function fieldByTag(db: Database, tag: string): FieldDef | undefined {
  return db.fields.find((f) => f.tags.includes(tag));
}

/** Sub-fields searched by an untagged term. */
export function allFieldSubs(db: Database): SubField[] {
  const seen = new Set<number>();
  const out: SubField[] = [];
  for (const f of db.fields) {
    if (f.inAll === false || f.uid || f.resolve) continue;
    for (const s of f.subs) {
      if (seen.has(s.code)) continue;
      seen.add(s.code);
      out.push(s);
    }
  }
  return out;
}
