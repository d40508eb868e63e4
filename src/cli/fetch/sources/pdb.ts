/**
 * The PDB archive as the wwPDB serves it (`pub/pdb/data/structures/divided/`), the chemical
 * component dictionary and SIFTS' chain-to-UniProt table (EBI). Entries are one small file each,
 * so they are fetched several at a time; the holdings file lists every current entry.
 */
import { gunzipSync } from 'node:zlib';
import { FetchError, UsageError } from '../errors.js';
import type { BulkSource, PlanContext, PlannedFile } from '../plan.js';
import { upstreamUrl } from '../upstreams.js';
import { chooseParts, describeSource, folder, limited } from './common.js';

const ENTRY = /^[0-9][0-9a-z]{3}$/;

/** Every current entry id, from the holdings file (an object keyed by id). */
async function holdings(ctx: PlanContext): Promise<string[]> {
  const url = upstreamUrl(ctx.upstreams, 'wwpdb', 'pub/pdb/holdings/current_file_holdings.json.gz');
  const { res, alive, done } = await ctx.http.get(url);
  try {
    if (res.status !== 200) throw new FetchError(`${url}: the upstream answered ${res.status}`);
    const chunks: Buffer[] = [];
    for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) {
      alive();
      chunks.push(Buffer.from(c));
    }
    const raw = Buffer.concat(chunks);
    const doc = JSON.parse((raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8')) as Record<string, unknown>;
    return Object.keys(doc)
      .map((k) => k.toLowerCase())
      .filter((k) => ENTRY.test(k))
      .sort();
  } finally {
    done();
  }
}

const ARCHIVE_PARTS = ['cif', 'sf'] as const;

export const archive: BulkSource = {
  kind: 'bulk',
  service: 'rcsb-data',
  dataset: 'archive',
  summary: 'PDB archive: pub/pdb/data/structures/divided/mmCIF/ entries named by --ids (else every current entry, --limit N), structure factors with --parts cif,sf',
  accepts: ['ids', 'limit', 'parts'],
  upstreams: ['wwpdb'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, ARCHIVE_PARTS, ['cif']);
    let ids = ctx.opts.ids?.map((i) => i.toLowerCase());
    for (const id of ids ?? []) if (!ENTRY.test(id)) throw new UsageError(`--ids ${id}: not a PDB entry id (four characters, a digit first)`);
    if (!ids?.length) {
      ids = limited(await holdings(ctx), ctx.opts);
      ctx.note(`the holdings list ${ids.length.toLocaleString('en-US')} entries${ctx.opts.limit !== undefined ? ' (the first of them, --limit)' : ''}`);
    }
    const base = 'pub/pdb/data/structures/divided';
    const files: PlannedFile[] = [];
    for (const id of ids) {
      const mid = id.slice(1, 3);
      if (parts.has('cif')) files.push({ url: upstreamUrl(ctx.upstreams, 'wwpdb', `${base}/mmCIF/${mid}/${id}.cif.gz`), path: `mmCIF/${mid}/${id}.cif.gz` });
      // Only entries from diffraction experiments have structure factors.
      if (parts.has('sf'))
        files.push({ url: upstreamUrl(ctx.upstreams, 'wwpdb', `${base}/structure_factors/${mid}/r${id}sf.ent.gz`), path: `structure_factors/${mid}/r${id}sf.ent.gz`, optional: true });
    }
    return { files, parallel: 4, source: describeSource(files, `${ids.length} entr${ids.length === 1 ? 'y' : 'ies'}: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''}`) };
  },
};

export const components: BulkSource = {
  kind: 'bulk',
  service: 'rcsb-data',
  dataset: 'components',
  summary: 'Chemical component dictionary: pub/pdb/data/monomers/components.cif.gz',
  accepts: [],
  upstreams: ['wwpdb'],
  async plan(ctx) {
    const f = await folder(ctx, 'wwpdb', 'pub/pdb/data/monomers/');
    const files = [f.file('components.cif.gz')];
    return { files, source: describeSource(files) };
  },
};

export const sifts: BulkSource = {
  kind: 'bulk',
  service: 'rcsb-data',
  dataset: 'sifts',
  summary: 'SIFTS chain-to-UniProt mapping: pub/databases/msd/sifts/flatfiles/tsv/pdb_chain_uniprot.tsv.gz (EBI)',
  accepts: [],
  upstreams: ['ebi'],
  async plan(ctx) {
    const f = await folder(ctx, 'ebi', 'pub/databases/msd/sifts/flatfiles/tsv/');
    const files = [f.file('pdb_chain_uniprot.tsv.gz')];
    return { files, source: describeSource(files) };
  },
};
