/** Distinct strings numbered in the order first seen, for columns of small numbers instead of text. */
export interface Interner {
  list: string[];
  /** The value's number, adding it when new. */
  id(s: string): number;
}

/** An interner; past `max` distinct values `tooMany` is thrown (the numbers' array type sets it). */
export function interner(max = Number.MAX_SAFE_INTEGER, tooMany: () => Error = () => new RangeError('too many distinct values')): Interner {
  const list: string[] = [];
  const ids = new Map<string, number>();
  return {
    list,
    id(s) {
      let i = ids.get(s);
      if (i === undefined) {
        i = list.push(s) - 1;
        if (i > max) throw tooMany();
        ids.set(s, i);
      }
      return i;
    },
  };
}
