/** Download progress on stderr: a redrawn line on a terminal, a line every few seconds otherwise (logs, CI). */

export interface FetchProgress {
  /** A file starts (or resumes at `from` bytes); `total` when the upstream says. */
  start(label: string, total: number | undefined, from: number): void;
  bytes(n: number): void;
  /** The file is complete (`how`: downloaded, resumed, unchanged...). */
  end(how: string): void;
  /** A line of its own: a retry, a note. */
  note(line: string): void;
}

const MB = 1024 * 1024;

export function bytesText(n: number): string {
  if (n >= 1024 * MB) return `${(n / 1024 / MB).toFixed(2)} GB`;
  if (n >= MB) return `${(n / MB).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(0)} kB`;
  return `${n} B`;
}

function duration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '--:--';
  const r = Math.round(s);
  const h = Math.floor(r / 3600);
  const m = Math.floor((r % 3600) / 60);
  return `${h ? `${h}:` : ''}${String(m).padStart(h ? 2 : 1, '0')}:${String(r % 60).padStart(2, '0')}`;
}

class State {
  label = '';
  total: number | undefined;
  from = 0;
  got = 0;
  startedAt = Date.now();

  line(final: boolean, how = ''): string {
    const elapsed = Math.max(0.001, (Date.now() - this.startedAt) / 1000);
    const rate = this.got / elapsed;
    const have = this.from + this.got;
    const of = this.total !== undefined ? ` of ${bytesText(this.total)}` : '';
    const pct = this.total ? ` ${String(Math.floor((100 * have) / this.total)).padStart(3)}%` : '';
    if (final) return `${this.label}: ${how}, ${bytesText(have)}${this.got && this.from ? ` (${bytesText(this.got)} this run)` : ''} in ${duration(elapsed)}`;
    const eta = this.total && rate > 0 ? duration((this.total - have) / rate) : '--:--';
    return `${this.label}:${pct} ${bytesText(have)}${of}, ${bytesText(rate)}/s, ETA ${eta}`;
  }
}

export class TerminalFetchProgress implements FetchProgress {
  private s = new State();
  private last = 0;
  constructor(private readonly out: NodeJS.WriteStream) {}
  start(label: string, total: number | undefined, from: number): void {
    this.s = Object.assign(new State(), { label, total, from });
    this.out.write(`\r\x1b[2K${this.s.line(false)}`);
  }
  bytes(n: number): void {
    this.s.got += n;
    const t = Date.now();
    if (t - this.last < 100) return;
    this.last = t;
    this.out.write(`\r\x1b[2K${this.s.line(false)}`);
  }
  end(how: string): void {
    this.out.write(`\r\x1b[2K${this.s.line(true, how)}\n`);
  }
  note(line: string): void {
    this.out.write(`\r\x1b[2K${line}\n`);
  }
}

export class LineFetchProgress implements FetchProgress {
  private s = new State();
  private last = Date.now();
  constructor(
    private readonly write: (line: string) => void,
    private readonly everyMs = 5000,
  ) {}
  start(label: string, total: number | undefined, from: number): void {
    this.s = Object.assign(new State(), { label, total, from });
    this.last = Date.now();
  }
  bytes(n: number): void {
    this.s.got += n;
    const t = Date.now();
    if (t - this.last < this.everyMs) return;
    this.last = t;
    this.write(this.s.line(false));
  }
  end(how: string): void {
    this.write(this.s.line(true, how));
  }
  note(line: string): void {
    this.write(line);
  }
}

export const silentFetchProgress: FetchProgress = { start: () => undefined, bytes: () => undefined, end: () => undefined, note: () => undefined };

/** As the ingest's: a redrawn line on a terminal; otherwise a line every BIOMIRROR_PROGRESS_MS (5 s). */
export function fetchProgressFor(stream: NodeJS.WriteStream = process.stderr, everyMs = Number(process.env.BIOMIRROR_PROGRESS_MS) || 5000): FetchProgress {
  return stream.isTTY ? new TerminalFetchProgress(stream) : new LineFetchProgress((l) => stream.write(`${l}\n`), everyMs);
}
