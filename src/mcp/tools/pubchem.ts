/** PubChem PUG REST: compounds by name, CID or SMILES with properties; similarity and substructure. */
import { z } from 'zod';
import { ToolError, getJson, type McpContext } from '../context.js';
import { decodeCursor, encodeCursor, type Page } from '../result.js';
import { enc, str, type ToolSpec } from './types.js';

const PUG = '/pubchem/rest/pug';
const DATASET = 'pubchem/compounds';
const PROPS = 'MolecularFormula,MolecularWeight,IsomericSMILES,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount';

async function properties(ctx: McpContext, cids: number[]): Promise<Page> {
  if (!cids.length) return { ids: [], items: [], total: 0 };
  const j = (await getJson(ctx, `${PUG}/compound/cid/${cids.join(',')}/property/${PROPS}/JSON`, { record: `CID ${cids.join(',')}`, dataset: DATASET })) as {
    PropertyTable?: { Properties?: Record<string, unknown>[] };
  };
  const items = j.PropertyTable?.Properties ?? [];
  return { ids: items.map((p) => String(p.CID)), items };
}

/** A search's CIDs, paged here: PUG REST answers every hit at once. */
async function searchPage(ctx: McpContext, url: string, limit: number, cursor: string | undefined): Promise<Page> {
  const { offset } = decodeCursor(cursor);
  const j = (await getJson(ctx, url, { record: 'the query structure', dataset: DATASET })) as { IdentifierList?: { CID?: number[] } };
  const all = j.IdentifierList?.CID ?? [];
  const page = await properties(ctx, all.slice(offset, offset + limit));
  const next = offset + limit < all.length ? encodeCursor({ offset: offset + limit }) : null;
  return { ...page, total: all.length, next_cursor: next, resume: (kept) => encodeCursor({ offset: offset + kept }) };
}

export const pubchemTools: ToolSpec[] = [
  {
    name: 'pubchem_compound',
    title: 'PubChem compound',
    description: 'A PubChem compound by name, CID or SMILES, with its properties (formula, weight, SMILES, InChIKey, IUPAC name, XLogP, TPSA, H-bond counts). Use to identify a chemical.',
    service: 'pubchem',
    input: {
      name: z.string().max(300).optional().describe('common or systematic name, e.g. aspirin'),
      cid: z.number().int().positive().optional().describe('PubChem CID, e.g. 2244'),
      smiles: z.string().max(2000).optional().describe('SMILES'),
    },
    async run(ctx, a) {
      const given = [
        ['name', str(a.name)],
        ['cid', a.cid === undefined ? undefined : String(a.cid)],
        ['smiles', str(a.smiles)],
      ].filter(([, v]) => v) as [string, string][];
      if (given.length !== 1) throw new ToolError('name, cid or smiles: give exactly one');
      const [kind, value] = given[0] as [string, string];
      const url = kind === 'smiles' ? `${PUG}/compound/smiles/cids/JSON?smiles=${enc(value)}` : `${PUG}/compound/${kind}/${enc(value)}/cids/JSON`;
      const j = (await getJson(ctx, url, { record: `compound ${kind} ${value}`, dataset: DATASET })) as { IdentifierList?: { CID?: number[] } };
      const cids = (j.IdentifierList?.CID ?? []).filter((c) => c > 0);
      if (!cids.length) throw new ToolError(`compound ${kind} ${value} is not in the loaded data (the dataset ${DATASET} would hold it)`);
      return properties(ctx, cids.slice(0, 10));
    },
  },
  {
    name: 'pubchem_similarity',
    title: 'PubChem 2D similarity search',
    description: 'Compounds similar to a SMILES (2D fingerprint Tanimoto, PubChem fastsimilarity_2d), with their properties. Use to find analogues of a structure.',
    service: 'pubchem',
    input: {
      smiles: z.string().min(1).max(2000).describe('query structure as SMILES'),
      threshold: z.number().int().min(70).max(100).default(90).describe('Tanimoto threshold, percent'),
      limit: z.number().int().min(1).max(50).default(10),
      cursor: z.string().max(2000).optional(),
    },
    run(ctx, a) {
      const url = `${PUG}/compound/fastsimilarity_2d/smiles/cids/JSON?smiles=${enc(a.smiles as string)}&Threshold=${a.threshold as number}`;
      return searchPage(ctx, url, a.limit as number, str(a.cursor));
    },
  },
  {
    name: 'pubchem_substructure',
    title: 'PubChem substructure search',
    description: 'Compounds containing a SMILES substructure (PubChem fastsubstructure), with their properties. Use to find compounds with a scaffold or group.',
    service: 'pubchem',
    input: {
      smiles: z.string().min(1).max(2000).describe('substructure as SMILES'),
      limit: z.number().int().min(1).max(50).default(10),
      cursor: z.string().max(2000).optional(),
    },
    run(ctx, a) {
      return searchPage(ctx, `${PUG}/compound/fastsubstructure/smiles/cids/JSON?smiles=${enc(a.smiles as string)}`, a.limit as number, str(a.cursor));
    },
  },
];
