/** What a source of a dataset is, and what it decides to download for one run. */
import type { Remote } from './download.js';
import type { Http } from './http.js';
import type { FetchProgress } from './progress.js';
import type { UpstreamKey, Upstreams } from './upstreams.js';

/** The choices a user can make about what is fetched; each source says which it takes. */
export interface FetchOptions {
  /** At most this many of the dataset's files (or entries, or studies): a subset of a huge set. */
  limit?: number | undefined;
  /** Identifiers to fetch (PDB ids, UniProt accessions or proteomes, study accessions). */
  ids?: string[] | undefined;
  /** Organisms whose gene_info to fetch instead of every organism's. */
  organisms?: string[] | undefined;
  /** Which of the dataset's files to fetch, instead of its default set. */
  parts?: string[] | undefined;
  /** A harvest's first and last day (YYYY-MM-DD), instead of "since the last harvest" and yesterday. */
  from?: string | undefined;
  to?: string | undefined;
  /** An access token, where the upstream's API needs one. */
  token?: string | undefined;
}

export type OptionName = keyof FetchOptions;

export interface PlannedFile extends Remote {
  /** Where it is kept below the dataset's download folder; the load sees it at the same place. */
  path: string;
  /** A file the upstream may lack (an entry's structure factors): a 404 is noted and passed over. */
  optional?: boolean;
  /** What the load gets instead of the file as downloaded: a filtered copy, a member of an archive. */
  derive?: Derived;
}

export interface Derived {
  /** Where the load sees it, below the load's folder. */
  path: string;
  /** Writes it to `dest` from the downloaded file `src`. */
  make(src: string, dest: string, signal: AbortSignal): Promise<void>;
}

export interface Plan {
  files: PlannedFile[];
  /** Files made from the upstream's API answers (metadata tables), written beside the downloads. */
  written?: { path: string; content: string }[];
  /**
   * What the upstream serves only through its API, asked after the downloads and written beside
   * them; the harvest keeps its answers in the dataset's folder, so it resumes where it stopped.
   */
  harvest?: (ctx: { dir: string; http: Http; note(line: string): void }) => Promise<{ path: string; content: string }[]>;
  /** How many downloads run at once (many small files); one by default. */
  parallel?: number;
  /** The upstream's own name of the release, when it gives one. */
  release?: string;
  /** What the load's provenance names as its source. */
  source: string;
}

export interface PlanContext {
  http: Http;
  upstreams: Upstreams;
  opts: FetchOptions;
  note(line: string): void;
}

interface SourceBase {
  service: string;
  dataset: string;
  /** One line for the command's help: where the data comes from. */
  summary: string;
  /** The options that mean something for this source. */
  accepts: readonly OptionName[];
  upstreams: readonly UpstreamKey[];
}

export interface BulkSource extends SourceBase {
  kind: 'bulk';
  plan(ctx: PlanContext): Promise<Plan>;
}

export interface HarvestContext extends PlanContext {
  /** The folder the harvest keeps its pages and its state in, across runs. */
  dir: string;
  progress: FetchProgress;
}

export interface HarvestResult {
  /** Whether anything new was written this run. */
  changed: boolean;
  /** The folder of saved pages the load reads. */
  input: string;
  source: string;
  /** The newest day harvested, the load's release when the records carry none. */
  release?: string;
}

export interface HarvestSource extends SourceBase {
  kind: 'harvest';
  harvest(ctx: HarvestContext): Promise<HarvestResult>;
}

export type Source = BulkSource | HarvestSource;
