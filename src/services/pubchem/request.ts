/**
 * The PUG REST grammar: `<domain>/<namespace>/<identifiers>/<operation>/<output>` after
 * `/rest/pug/`, identifiers possibly in the query string or a form body under the namespace's
 * name, and the output possibly in the Accept header. This only reads the request; what each
 * part means is in dispatch.ts.
 */
import { pcErrors } from './errors.js';
import { outputFromAccept, outputOf, type Output } from './output/formats.js';

export type Domain = 'compound' | 'substance' | 'assay';
export type SearchKind = 'substructure' | 'superstructure' | 'similarity' | 'identity';
export type StructureInput = 'smiles' | 'smarts' | 'inchi' | 'sdf' | 'cid';

/** The cross-reference types PubChem searches by (`<domain>/xref/<type>/<value>`). */
export const XREF_TYPES = ['RegistryID', 'RN', 'PubMedID', 'MMDBID', 'ProteinGI', 'NucleotideGI', 'TaxonomyID', 'MIMID', 'GeneID', 'ProbeID', 'PatentID'] as const;
export type XrefType = (typeof XREF_TYPES)[number];

export type Namespace =
  | { kind: 'cid' | 'sid' | 'aid' | 'name' | 'smiles' | 'inchi' | 'inchikey' | 'sdf' | 'listkey' | 'formula' | 'fastformula' }
  | { kind: 'search'; search: SearchKind; input: StructureInput; fast: boolean }
  | { kind: 'mass'; column: 'mw' | 'exact_mass' | 'mono_mass'; low: number; high: number }
  | { kind: 'sourceid'; source: string }
  | { kind: 'xref'; xref: XrefType };

export interface PugRequest {
  domain: Domain;
  namespace: Namespace;
  /** Identifiers as given: a list for numeric ids and InChIKeys, one string otherwise. */
  identifiers: string[];
  operation: string;
  /** The argument of `property/...`, `xrefs/...`, `targets/...`. */
  argument: string | undefined;
  output: Output;
  options: Options;
}

/** Query-string and form parameters, looked up without regard to case (PubChem is lenient). */
export class Options {
  private readonly map = new Map<string, string>();
  constructor(...sources: (Record<string, unknown> | undefined)[]) {
    for (const src of sources) {
      if (!src || typeof src !== 'object') continue;
      for (const [k, v] of Object.entries(src)) {
        const value = Array.isArray(v) ? v.map(String).join(',') : v === undefined || v === null ? undefined : String(v);
        if (value !== undefined && !this.map.has(k.toLowerCase())) this.map.set(k.toLowerCase(), value);
      }
    }
  }

  get(name: string): string | undefined {
    return this.map.get(name.toLowerCase());
  }
}

const OTHER_DOMAINS = new Set(['gene', 'protein', 'pathway', 'taxonomy', 'cell', 'sources', 'sourcetable', 'annotations', 'classification', 'standardize', 'periodictable']);
const SEARCHES: Record<string, { search: SearchKind; fast: boolean }> = {
  substructure: { search: 'substructure', fast: false },
  superstructure: { search: 'superstructure', fast: false },
  similarity: { search: 'similarity', fast: false },
  similarity_2d: { search: 'similarity', fast: false },
  identity: { search: 'identity', fast: false },
  fastsubstructure: { search: 'substructure', fast: true },
  fastsuperstructure: { search: 'superstructure', fast: true },
  fastsimilarity_2d: { search: 'similarity', fast: true },
  fastidentity: { search: 'identity', fast: true },
};
const STRUCTURE_INPUTS: StructureInput[] = ['smiles', 'smarts', 'inchi', 'sdf', 'cid'];
const MASSES = { molecular_weight: 'mw', exact_mass: 'exact_mass', monoisotopic_mass: 'mono_mass' } as const;

const NAMESPACES: Record<Domain, readonly string[]> = {
  compound: ['cid', 'name', 'smiles', 'inchi', 'sdf', 'inchikey', 'formula', 'fastformula', 'listkey', 'xref', ...Object.keys(SEARCHES), ...Object.keys(MASSES)],
  substance: ['sid', 'name', 'sourceid', 'listkey', 'xref'],
  assay: ['aid', 'listkey'],
};
const UNSERVED_NAMESPACES = new Set(['fastsimilarity_3d', 'similarity_3d', 'sourceall', 'type', 'target', 'activity']);

/** Identifiers that come as comma-separated lists. */
const LISTS = new Set(['cid', 'sid', 'aid', 'inchikey']);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw pcErrors.badRequest('Invalid URL', `"${segment}" is not a valid percent-encoded path segment`);
  }
}

/** Parses the path below `/rest/pug/` (raw, still percent-encoded), with options and the Accept header. */
export function parsePugPath(rawPath: string, options: Options, accept: string | undefined): PugRequest {
  const seg = rawPath
    .split('/')
    .filter((s, i, all) => s !== '' || i < all.length - 1)
    .map(decode);
  let i = 0;
  const next = () => seg[i++];
  const domainName = (next() ?? '').toLowerCase();
  if (OTHER_DOMAINS.has(domainName)) throw pcErrors.unimplemented(`The ${domainName} input`);
  if (!Object.hasOwn(NAMESPACES, domainName)) throw pcErrors.badDomain(domainName);
  const domain = domainName as Domain;

  const nsName = (next() ?? '').toLowerCase();
  if (UNSERVED_NAMESPACES.has(nsName)) throw pcErrors.unimplemented(`The ${nsName} namespace`);
  if (!NAMESPACES[domain].includes(nsName)) throw pcErrors.badNamespace(nsName, domain, NAMESPACES[domain]);

  let namespace: Namespace;
  let key: string = nsName;
  const search = domain === 'compound' && Object.hasOwn(SEARCHES, nsName) ? SEARCHES[nsName] : undefined;
  if (search) {
    const input = (next() ?? '').toLowerCase() as StructureInput;
    if (!STRUCTURE_INPUTS.includes(input))
      throw pcErrors.badNamespace(
        `${nsName}/${input}`,
        domain,
        STRUCTURE_INPUTS.map((x) => `${nsName}/${x}`),
      );
    namespace = { kind: 'search', ...search, input };
    key = input;
  } else if (Object.hasOwn(MASSES, nsName)) {
    const mode = (next() ?? '').toLowerCase();
    const values = [next(), mode === 'range' ? next() : undefined].filter((v) => v !== undefined).map(Number);
    if ((mode !== 'equals' && mode !== 'range') || values.length !== (mode === 'range' ? 2 : 1) || values.some((v) => !Number.isFinite(v))) {
      throw pcErrors.badRequest('Invalid mass search', `expected ${nsName}/equals/<value> or ${nsName}/range/<low>/<high> with numbers`);
    }
    const [low, high] = mode === 'range' ? (values as [number, number]) : [values[0] as number, values[0] as number];
    namespace = { kind: 'mass', column: MASSES[nsName as keyof typeof MASSES], low: Math.min(low, high), high: Math.max(low, high) };
  } else if (nsName === 'sourceid') {
    const source = next();
    if (!source) throw pcErrors.badRequest('Invalid namespace', 'sourceid needs a source name: substance/sourceid/<source>/<id>');
    namespace = { kind: 'sourceid', source: source.replace(/\./g, '/') };
  } else if (nsName === 'xref') {
    const given = next() ?? '';
    const xref = XREF_TYPES.find((x) => x.toLowerCase() === given.toLowerCase());
    if (!xref)
      throw pcErrors.badNamespace(
        `xref/${given}`,
        domain,
        XREF_TYPES.map((x) => `xref/${x}`),
      );
    namespace = { kind: 'xref', xref };
    key = xref;
  } else if (nsName === 'fastformula') {
    namespace = { kind: 'fastformula' };
    key = 'formula';
  } else {
    namespace = { kind: nsName as 'cid' };
  }

  // Identifiers: under the namespace's name in the query or body, else the next path segment.
  let identifiers: string[] = [];
  if (namespace.kind !== 'mass') {
    const given = options.get(key);
    const raw = given ?? next();
    if (raw === undefined || raw.trim() === '') throw pcErrors.noIdentifier(key);
    identifiers = LISTS.has(key) ? raw.split(/[,\s]+/).filter((s) => s !== '') : [raw];
  }

  // Operation (default: the full record), its argument, then the output.
  const rest = seg.slice(i);
  let operation = 'record';
  let argument: string | undefined;
  const last = rest[rest.length - 1];
  const pathOutput = last !== undefined ? outputOf(last) : undefined;
  const opSegs = pathOutput ? rest.slice(0, -1) : rest;
  if (opSegs.length) {
    operation = (opSegs[0] as string).toLowerCase();
    if (opSegs.length > 2) throw pcErrors.badRequest('Invalid URL', `unexpected path segments after the operation: ${opSegs.slice(2).join('/')}`);
    argument = opSegs[1];
    if (opSegs.length === 2 && !['property', 'xrefs', 'targets', 'doseresponse'].includes(operation)) {
      const second = opSegs[1] as string;
      throw pcErrors.badRequest('Invalid output format', `"${second}" is not an output format; use one of XML, JSON, JSONP, CSV, TXT, SDF, PNG`);
    }
  }
  let output: Output;
  if (pathOutput) output = pathOutput;
  else {
    const fromAccept = outputFromAccept(accept);
    if (fromAccept === 'unacceptable') throw pcErrors.notAllowed(`the Accept header "${accept ?? ''}" names no output format PUG REST serves`);
    output = fromAccept;
  }
  return { domain, namespace, identifiers, operation, argument, output, options };
}
