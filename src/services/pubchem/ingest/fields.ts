/** A positive integer identifier (CID, SID, AID) as written in PubChem's files, or undefined. */
export const positiveInt = (s: string | undefined): number | undefined => {
  if (s === undefined || !/^\d{1,12}$/.test(s.trim())) return undefined;
  const n = Number(s.trim());
  return n > 0 ? n : undefined;
};
