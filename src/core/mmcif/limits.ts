/**
 * Input bounds checked before Mol* sees the bytes. Generous for real entries (the largest PDB
 * entries inflate to a few hundred megabytes), tight enough that a hostile upload cannot exhaust
 * memory. Overridable by environment for operators with other needs.
 */
const MiB = 1024 * 1024;

export const cifLimits = {
  /** Bytes of the input as given (compressed or not). */
  maxInputBytes: Number(process.env.BIOMIRROR_CIF_MAX_INPUT_MB ?? 256) * MiB,
  /** Bytes after gunzip; zlib stops inflating past this. */
  maxInflatedBytes: Number(process.env.BIOMIRROR_CIF_MAX_INFLATED_MB ?? 480) * MiB,
};
