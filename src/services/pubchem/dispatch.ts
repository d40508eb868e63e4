/**
 * One PUG REST request: the operation is looked up in its domain's table (so a bad operation or
 * output answers 400 before any lookup), the input is resolved, then the operation runs. A search
 * still running answers `{"Waiting": {"ListKey", "Message"}}` with status 202.
 */
import { pcErrors } from './errors.js';
import { ASSAY_OPS, UNSERVED_ASSAY_OPS } from './ops/assay.js';
import { COMPOUND_OPS, UNSERVED_COMPOUND_OPS } from './ops/compound.js';
import { SUBSTANCE_OPS, UNSERVED_SUBSTANCE_OPS } from './ops/substance.js';
import type { Output } from './output/formats.js';
import { renderDoc, type Answer } from './output/render.js';
import type { Domain, PugRequest } from './request.js';
import { resolve, type Env } from './resolve.js';

interface OpEntry {
  outputs: Output[];
  // Each domain's table narrows the subject to its own kind.
  run(env: Env, subject: never, req: PugRequest): Promise<Answer>;
}

const TABLES: Record<Domain, { ops: Record<string, OpEntry>; unserved: readonly string[] }> = {
  compound: { ops: COMPOUND_OPS, unserved: UNSERVED_COMPOUND_OPS },
  substance: { ops: SUBSTANCE_OPS, unserved: UNSERVED_SUBSTANCE_OPS },
  assay: { ops: ASSAY_OPS, unserved: UNSERVED_ASSAY_OPS },
};

const ASN_OUTPUTS: Output[] = ['ASNT', 'ASNB'];
const RECORD_OPS = ['record', 'description'];

export const WAITING_MESSAGE = 'Your request is running';

export async function handlePug(env: Env, req: PugRequest): Promise<Answer> {
  const table = TABLES[req.domain];
  // Operation names come from the path: only the table's own entries, never Object's members.
  const op = Object.hasOwn(table.ops, req.operation) ? table.ops[req.operation] : undefined;
  if (!op) {
    if (table.unserved.includes(req.operation)) throw pcErrors.unimplemented(`The ${req.domain} operation "${req.operation}"`);
    throw pcErrors.badOperation(req.operation, req.domain, Object.keys(table.ops));
  }
  if (!op.outputs.includes(req.output)) {
    // PubChem writes assay descriptions as ASN.1 too; this mirror only compound and substance records.
    if (ASN_OUTPUTS.includes(req.output) && RECORD_OPS.includes(req.operation)) throw pcErrors.unimplemented(`${req.output} (ASN.1) output of ${req.domain} records`);
    throw pcErrors.badOutput(req.output, `${req.domain} ${req.operation}`, op.outputs);
  }
  const resolved = await resolve(env, req);
  if ('waiting' in resolved) {
    const doc = { Waiting: { ListKey: resolved.waiting, Message: WAITING_MESSAGE } };
    return renderDoc(doc, req.output === 'XML' || req.output === 'JSONP' ? req.output : 'JSON', req.options, {}, 202);
  }
  return op.run(env, resolved.subject as never, req);
}
