import type { Db } from '../store/db.js';
import type { Updates } from './updates.js';

/** The tables of one generation: logical names resolve to names carrying the load id. */
export interface TableSet {
  readonly gen: number;
  name(logical: string): string;
}

export function tableSet(prefix: string, gen: number): TableSet {
  return { gen, name: (logical) => `${prefix}_${logical}_g${gen}` };
}

export interface SkipPlace {
  file: string;
  /** Line number, array index or archive entry name: whatever finds the record again. */
  position: string | number;
}

/** What a reader of an official bulk format may tell the loader while it streams. */
export interface ReadContext {
  /** A record that cannot be loaded: it is counted and reported, and the load goes on. */
  skip(place: SkipPlace, reason: string): void;
  /** Share of the input read so far (0..1), for the ETA. */
  progress(fraction: number): void;
  /** The upstream release or date, when the input carries one. */
  release(value: string): void;
  readonly signal: AbortSignal;
}

/** Steps of a dataset's `finish` with their seconds, in the order they began; `alongside` marks one that ran beside others. */
export type FinishSteps = { step: string; seconds: number; alongside?: boolean }[];

/**
 * One independently loaded body of data of a service (ClinicalTrials.gov has one; NCBI has gene and
 * clinvar). The loader streams `read`, writes batches into a fresh generation, then switches.
 */
export interface Dataset<R> {
  readonly service: string;
  readonly name: string;
  /** Short SQL prefix of its tables, e.g. `ct`. */
  readonly tablePrefix: string;
  /** Logical table names of one generation, dropped when the generation is retired. */
  readonly tables: readonly string[];
  readonly batchSize?: number;
  /** Where its demo input is (a file or folder in the official format). */
  readonly demo?: string;
  /** Streams records out of a file or folder; throws FormatError when the input is not the expected format. */
  read(input: string, ctx: ReadContext): AsyncIterable<R>;
  create(db: Db, t: TableSet): Promise<void>;
  /** Writes a batch; returns the indexes of records refused as duplicates of ones already written. */
  write(tx: Db, t: TableSet, batch: readonly R[]): Promise<readonly number[]>;
  /**
   * Secondary indexes and statistics, built once after the rows are in (faster than row by row).
   * A long one may return the seconds its steps took, which the load reports.
   */
  finish(db: Db, t: TableSet): Promise<void | FinishSteps>;
  count(db: Db, t: TableSet): Promise<number>;
  /** Lets go of what `create` opened for a load that failed or was stopped (its tables are dropped by the loader). */
  abandon?(): void;
  /** What a record is and how the upstream's update files apply (`ingest --update`); none: full loads only. */
  readonly updates?: Updates<R>;
}
