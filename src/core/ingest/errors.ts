/** The input is not the format the dataset reads: the load stops at once and nothing changes. */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}

/** The load was stopped (Ctrl-C, SIGTERM) before it switched: nothing changes. */
export class LoadAborted extends Error {
  override readonly name = 'LoadAborted';
}

/** An update cannot apply here (nothing loaded yet, no update format, tables of another layout): nothing changes. */
export class UpdateRefused extends Error {
  override readonly name = 'UpdateRefused';
}
