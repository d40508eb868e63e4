import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../core/http/errors.js';
import type { ServiceModule } from '../services/types.js';

/** Node's parser codes for requests too large to read, which HTTP answers with 431. */
const TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW']);

/** The path of a request line as far as it can be read from the raw bytes (up to the first space). */
export function rawPath(raw: unknown): string {
  // Node hands the bytes as a Buffer; Fastify's types describe Buffer's JSON form.
  const packet = Buffer.isBuffer(raw) ? raw : undefined;
  if (!packet) return '';
  const line = packet.subarray(0, Math.min(packet.length, 8192)).toString('latin1').split('\r\n')[0] ?? '';
  const target = line.split(' ')[1] ?? '';
  return target.split('?')[0] ?? '';
}

export type ServiceFinder = (path: string) => ServiceModule | undefined;

/** Which parser refusals deserve a description, in words a client developer understands. */
function describe(code: string | undefined, message: string): string {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'the request line or headers are larger than this server accepts';
    case 'HPE_INVALID_METHOD':
      return 'unknown HTTP method';
    case 'HPE_INVALID_URL':
      return 'the request target contains characters that are not allowed (a space, NUL or control byte)';
    default:
      return message.replace(/^Parse Error:\s*/i, '');
  }
}

/**
 * An answer to a request that Node's HTTP parser refused before any route saw it, in the error body
 * of the service its path points into, with a request id like every other answer. The connection is
 * closed after it: the parser cannot know where the next request would start.
 */
export function clientErrorHandler(find: ServiceFinder) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code && TOO_LARGE.has(err.code) ? 431 : 400;
    const path = rawPath(err.rawPacket);
    const service = find(path);
    const message = `Malformed request: ${describe(err.code, err.message)}`;
    const e = service ? service.errors.badRequest(message, status, path) : new ServiceError(status, { error: 'bad request', message });
    const body = typeof e.body === 'string' || Buffer.isBuffer(e.body) ? Buffer.from(e.body) : Buffer.from(JSON.stringify(e.body));
    const head = [
      `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Bad Request'}`,
      `Content-Type: ${e.contentType}`,
      `Content-Length: ${body.length}`,
      `x-request-id: ${randomUUID()}`,
      ...Object.entries(e.headers).map(([k, v]) => `${k}: ${v}`),
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  };
}
