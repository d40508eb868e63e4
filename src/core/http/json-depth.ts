/**
 * How deeply a request's JSON may nest. No upstream body needs more than a few dozen levels (a
 * structure search's nested groups are the deepest); thousands of levels would overflow the stack of
 * any recursive walk over the parsed value, so they are refused before parsing.
 */
export const MAX_JSON_DEPTH = 128;

/** The deepest nesting of arrays and objects in a JSON text (strings skipped), stopping past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}
