/** Errors of the structure-file library; each names what was wrong so a route can answer with it. */

/** Malformed, truncated or oversized CIF input (the message says where). */
export class CifFormatError extends Error {
  override name = 'CifFormatError';
}

/**
 * The legacy PDB format cannot hold this structure: more than 99,999 atoms, more than 62 chains,
 * a chain id longer than one character, or a residue name longer than three. The real archive has
 * no legacy file for such entries, and neither do we (no hybrid-36 or truncated ids).
 */
export class LegacyFormatUnavailable extends Error {
  override name = 'LegacyFormatUnavailable';
}

/** The file has no assembly with the requested id. */
export class AssemblyNotFound extends Error {
  override name = 'AssemblyNotFound';
}

/** A conversion ran past its time budget (its worker was ended and replaced). */
export class CifTaskTimeout extends Error {
  override name = 'CifTaskTimeout';
}
