/** Live progress of a load: a redrawn bar on a terminal, plain lines otherwise (logs, CI). */
export interface ProgressSink {
  update(state: ProgressState): void;
  done(state: ProgressState, message: string): void;
}

export interface ProgressState {
  label: string;
  records: number;
  skipped: number;
  /** Share of the input read, when known. */
  fraction: number | undefined;
  startedAt: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? h + ':' : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

export function describe(state: ProgressState, now = Date.now()): { rate: number; eta: number | undefined; elapsed: number } {
  const elapsed = Math.max(0.001, (now - state.startedAt) / 1000);
  const rate = state.records / elapsed;
  const f = state.fraction;
  const eta = f !== undefined && f > 0.001 ? (elapsed * (1 - f)) / f : undefined;
  return { rate, eta, elapsed };
}

export class TerminalProgress implements ProgressSink {
  private last = 0;
  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  update(state: ProgressState): void {
    const t = Date.now();
    if (t - this.last < 100) return;
    this.last = t;
    this.draw(state, false);
  }

  private draw(state: ProgressState, final: boolean): void {
    const { rate, eta, elapsed } = describe(state);
    const width = 24;
    const f = final ? 1 : (state.fraction ?? 0);
    const filled = Math.round(width * f);
    const bar = state.fraction === undefined && !final ? '·'.repeat(width) : '█'.repeat(filled) + '░'.repeat(width - filled);
    const pct = state.fraction === undefined && !final ? '  ? ' : `${String(Math.floor(f * 100)).padStart(3)}%`;
    const skipped = state.skipped ? `, ${fmt(state.skipped)} skipped` : '';
    const tail = final ? `in ${duration(elapsed)}` : `ETA ${eta === undefined ? '--:--' : duration(eta)}`;
    const line = `${state.label} ${bar} ${pct} ${fmt(state.records)} records${skipped} · ${fmt(rate)}/s · ${tail}`;
    this.out.write(`\r\x1b[2K${line}`);
  }

  done(state: ProgressState, message: string): void {
    this.draw(state, true);
    this.out.write(`\n${message}\n`);
  }
}

export class LineProgress implements ProgressSink {
  private last = Date.now();
  constructor(
    private readonly write: (line: string) => void = (l) => process.stderr.write(l + '\n'),
    private readonly everyMs = 5000,
  ) {}

  update(state: ProgressState): void {
    const t = Date.now();
    if (t - this.last < this.everyMs) return;
    this.last = t;
    const { rate, eta } = describe(state);
    const pct = state.fraction === undefined ? '' : ` ${Math.floor(state.fraction * 100)}%`;
    this.write(`${state.label}:${pct} ${fmt(state.records)} records, ${fmt(state.skipped)} skipped, ${fmt(rate)}/s, ETA ${eta === undefined ? 'unknown' : duration(eta)}`);
  }

  done(_state: ProgressState, message: string): void {
    this.write(message);
  }
}

export const silentProgress: ProgressSink = { update: () => undefined, done: () => undefined };

/** A bar on a terminal; otherwise a line every `everyMs` (BIOMIRROR_PROGRESS_MS, default 5 s). */
export function progressFor(stream: NodeJS.WriteStream = process.stderr, everyMs = Number(process.env.BIOMIRROR_PROGRESS_MS) || 5000): ProgressSink {
  return stream.isTTY ? new TerminalProgress(stream) : new LineProgress((l) => stream.write(l + '\n'), everyMs);
}
