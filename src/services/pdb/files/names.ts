/**
 * File names of the download host: `{id}` + `.cif`, `-sf.cif`, `.bcif`, `.pdb`, `.pdb{N}`,
 * `-assembly{N}.cif`, each also `.gz`. Ids are matched in any case (the host answers 4hhb and
 * 4HHB alike); extensions are lower case only, as the archive's file names are. Extended ids
 * (`pdb_00001abc`) name the same entry as their four-character form.
 */

export type FileKind = 'cif' | 'sf' | 'bcif' | 'pdb' | 'assembly-cif' | 'assembly-pdb';

export interface FileName {
  /** Upper-cased four-character entry id. */
  id: string;
  kind: FileKind;
  assembly?: string;
  gz: boolean;
}

const NAME =
  /^(?<id>[0-9][A-Za-z0-9]{3}|[pP][dD][bB]_0000[0-9][A-Za-z0-9]{3})(?:(?<cif>\.cif)|(?<sf>-sf\.cif)|(?<bcif>\.bcif)|\.pdb(?<pn>[1-9][0-9]{0,3})?|-assembly(?<an>[1-9][0-9]{0,3})\.cif)(?<gz>\.gz)?$/;

/** The entry id of a name or path segment: four characters upper-cased, or undefined when malformed. */
export function entryId(raw: string): string | undefined {
  const m = /^(?:[0-9][A-Za-z0-9]{3}|[pP][dD][bB]_0000[0-9][A-Za-z0-9]{3})$/.exec(raw);
  return m ? raw.slice(-4).toUpperCase() : undefined;
}

export function parseFileName(name: string): FileName | undefined {
  const m = NAME.exec(name);
  const g = m?.groups;
  if (!g || !g.id) return undefined;
  const id = g.id.slice(-4).toUpperCase();
  const gz = Boolean(g.gz);
  if (g.cif) return { id, kind: 'cif', gz };
  if (g.sf) return { id, kind: 'sf', gz };
  if (g.bcif) return { id, kind: 'bcif', gz };
  if (g.an) return { id, kind: 'assembly-cif', assembly: g.an, gz };
  if (g.pn) return { id, kind: 'assembly-pdb', assembly: g.pn, gz };
  return { id, kind: 'pdb', gz };
}
