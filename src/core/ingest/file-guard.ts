/**
 * Fails a load fast when a file starts with nothing but records that are not the dataset's: a
 * wrong file would otherwise be read to its end, skipping every record one by one.
 */
import { FormatError } from './errors.js';

/** Records in a row at the start of a file that, none of them usable, show it is not the dataset's. */
export const PROBE = 100;

export class FileGuard {
  private seen = 0;
  private good = 0;

  /** `what`: the records expected, plural ("ClinicalTrials.gov studies"); `expected`: the formats read. */
  constructor(
    private readonly file: string,
    private readonly what: string,
    private readonly expected: string,
  ) {}

  accept(): void {
    this.seen++;
    this.good++;
  }

  /** Counts a record that is not the dataset's; throws FormatError once the first PROBE all were not. */
  reject(): void {
    this.seen++;
    if (this.good === 0 && this.seen >= PROBE) {
      throw new FormatError(`${this.file}: the first ${PROBE} records are not ${this.what}; expected ${this.expected}`);
    }
  }
}
