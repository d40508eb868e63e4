/**
 * Log lines for a person at a terminal: `14:02:11 INFO  GET /pubchem/... 200 3.1 ms` instead of
 * JSON. Only when stdout is a terminal (and LOG_FORMAT is not `json`); a pipe, a file or a log
 * collector still gets one JSON object per line.
 */
import { Writable } from 'node:stream';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 40: '\u001b[33m', 50: '\u001b[31m', 60: '\u001b[31m' };
const DIM = '\u001b[2m';
const RESET = '\u001b[0m';
const SKIP = new Set(['level', 'time', 'msg', 'app', 'pid', 'hostname', 'reqId', 'method', 'url', 'status', 'ms', 'ip']);

export function prettyLine(line: string, colour: boolean): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof o.time === 'string' ? o.time.slice(11, 19) : '';
  const level = Number(o.level);
  const tag = LEVELS[level] ?? String(o.level);
  const head = colour ? `${DIM}${time}${RESET} ${COLOURS[level] ?? ''}${tag}${COLOURS[level] ? RESET : ''}` : `${time} ${tag}`;
  if (o.msg === 'request') return `${head} ${o.method} ${o.url} ${o.status} ${o.ms} ms${colour ? ` ${DIM}${o.reqId}${RESET}` : ''}`;
  const rest = Object.entries(o)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${head} ${o.msg ?? ''}${rest ? ` ${colour ? DIM : ''}${rest}${colour ? RESET : ''}` : ''}`;
}

/** A destination that turns pino's JSON lines into `prettyLine`s on `out`. */
export function prettyDestination(out: NodeJS.WriteStream, colour = true): Writable {
  let carry = '';
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const text = carry + chunk.toString();
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      if (lines.length) out.write(lines.map((l) => prettyLine(l, colour)).join('\n') + '\n');
      done();
    },
  });
}
