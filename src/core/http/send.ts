/** Sends a service's error as its upstream writes it: status, content type, headers, body. */
import type { FastifyReply } from 'fastify';
import type { ServiceError } from './errors.js';

export function sendServiceError(reply: FastifyReply, e: ServiceError): FastifyReply {
  reply.code(e.status).type(e.contentType);
  for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
  const body = typeof e.body === 'string' || Buffer.isBuffer(e.body) ? e.body : JSON.stringify(e.body);
  return reply.send(body);
}
