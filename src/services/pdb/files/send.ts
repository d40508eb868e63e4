/**
 * Sending a file as a static file server does: a strong ETag and If-None-Match (304), one byte
 * range (206, or 416 outside the file; several ranges get the whole file, which RFC 9110 allows),
 * Accept-Ranges, and the stored gzip passed through with Content-Encoding when the client takes it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { filesErrors } from './errors.js';

/** Whether Accept-Encoding admits gzip (a q=0 refuses it). */
export function acceptsGzip(req: FastifyRequest): boolean {
  const header = req.headers['accept-encoding'];
  if (!header) return false;
  for (const part of String(header).split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** A single `bytes=` range over `length` bytes: [start, end] inclusive, 'invalid' (ignore), or 'unsatisfiable'. */
export function parseRange(header: string | undefined, length: number): [number, number] | 'none' | 'unsatisfiable' {
  if (!header) return 'none';
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return 'none';
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '' && b === '') return 'none';
  if (a === '') {
    const n = Number(b);
    if (n === 0) return 'unsatisfiable';
    return [Math.max(0, length - n), length - 1];
  }
  const start = Number(a);
  const end = b === '' ? length - 1 : Math.min(Number(b), length - 1);
  if (start >= length || (b !== '' && Number(b) < start)) return 'unsatisfiable';
  return [start, end];
}

export interface Body {
  bytes: Uint8Array;
  etag: string;
  contentType: string;
  /** Set when the bytes are sent with Content-Encoding: gzip. */
  encoding?: 'gzip';
  /** The response depends on Accept-Encoding. */
  vary?: boolean;
  disposition?: string;
}

export function sendBody(req: FastifyRequest, reply: FastifyReply, body: Body): FastifyReply {
  reply.header('etag', body.etag).header('accept-ranges', 'bytes').header('content-type', body.contentType);
  if (body.vary) reply.header('vary', 'Accept-Encoding');
  if (body.encoding) reply.header('content-encoding', body.encoding);
  if (body.disposition) reply.header('content-disposition', body.disposition);
  if (etagMatches(req.headers['if-none-match'], body.etag)) return reply.code(304).send();
  const length = body.bytes.byteLength;
  // Ranges apply to the identity form only; a gzip-encoded answer is always whole.
  const range = body.encoding ? 'none' : parseRange(req.headers.range, length);
  const ifRange = req.headers['if-range'];
  if (range === 'unsatisfiable') throw filesErrors.unsatisfiable(length);
  if (range !== 'none' && (!ifRange || ifRange === body.etag)) {
    const [start, end] = range;
    reply.code(206).header('content-range', `bytes ${start}-${end}/${length}`);
    return reply.send(Buffer.from(body.bytes.buffer, body.bytes.byteOffset + start, end - start + 1));
  }
  return reply.code(200).send(Buffer.from(body.bytes.buffer, body.bytes.byteOffset, length));
}
