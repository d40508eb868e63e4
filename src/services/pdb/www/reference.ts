/**
 * The RCSB site's FASTA downloads described for biomirror's reference page (the site publishes no
 * OpenAPI document), with examples from the demo archive (4HHB).
 */
import type { ApiReference, OperationDoc, ParamDoc } from '../../types.js';

const mode: ParamDoc = { name: 'mode', in: 'path', description: '`download` sends the FASTA as an attachment; `display` shows it', enum: ['download', 'display'], example: 'display' };

function scope(what: string, key: string, description: string, example: string): OperationDoc[] {
  const params: ParamDoc[] = [{ name: 'key', in: 'path', description, example }];
  return [
    { path: `/fasta/${key}/{key}`, tag: 'FASTA', summary: `Sequences of ${what}`, params, answers: ['text/plain'] },
    { path: `/fasta/${key}/{key}/{mode}`, tag: 'FASTA', summary: `Sequences of ${what}, to download or display`, params: [...params, mode], answers: ['text/plain'] },
  ];
}

export const SITE_REFERENCE: ApiReference = {
  description: "The RCSB site's FASTA downloads: the polymer sequences of a loaded entry, one of its entities or one chain.",
  tags: { FASTA: 'www.rcsb.org/fasta' },
  operations: [
    ...scope('an entry', 'entry', 'The entry id', '4HHB'),
    ...scope('an entity', 'entity', 'The entry id and the entity number: `{id}_{n}`', '4HHB_1'),
    ...scope('a chain', 'chain', 'The entry id and the chain: `{id}.{chain}`', '4HHB.A'),
  ],
};
