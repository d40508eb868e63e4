import { describe, expect, it } from 'vitest';
import { prettyDestination, prettyLine } from '../src/server/pretty-log.js';

describe('log lines at a terminal', () => {
  it('writes a request as one readable line and other records with their fields', () => {
    const req = JSON.stringify({
      level: 30,
      time: '2026-11-25T14:02:11.123Z',
      app: 'biomirror',
      reqId: 'abc',
      method: 'GET',
      url: '/pubchem/x',
      status: 200,
      ms: 3.1,
      ip: '127.0.0.1',
      msg: 'request',
    });
    expect(prettyLine(req, false)).toBe('14:02:11 INFO  GET /pubchem/x 200 3.1 ms');
    const warn = JSON.stringify({ level: 40, time: '2026-11-25T14:02:12.000Z', app: 'biomirror', service: 'pubchem', msg: 'could not print', err: { message: 'x' } });
    expect(prettyLine(warn, false)).toBe('14:02:12 WARN  could not print service=pubchem err={"message":"x"}');
    expect(prettyLine('not json', false)).toBe('not json');
    expect(prettyLine(req, true)).toContain('\u001b[');
  });

  it('splits a stream of JSON lines, whatever the chunks', async () => {
    let out = '';
    const fake = { write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const d = prettyDestination(fake, false);
    const line = (msg: string) => JSON.stringify({ level: 30, time: '2026-11-25T00:00:00.000Z', msg });
    const text = `${line('one')}\n${line('two')}\n`;
    await new Promise<void>((r) => d.write(text.slice(0, 20), () => r()));
    await new Promise<void>((r) => d.write(text.slice(20), () => r()));
    expect(out).toBe('00:00:00 INFO  one\n00:00:00 INFO  two\n');
  });
});
