/**
 * `pdbx_struct_assembly_gen.oper_expression`: operator ids and ranges in groups, where several
 * groups form a product applied right to left — `1`, `1,2`, `(1-60)`, `(1,2)(3-5)`, `(X0)(1-20)`.
 * Returns each combination as the list of operator ids in the order written.
 */
export function expandOperExpression(expr: string, maxCombinations = 100_000): string[][] {
  const text = expr.replace(/\s+/g, '');
  if (text.length === 0) return [];
  const groups: string[][] = [];
  const paren = text.match(/\(([^()]*)\)/g);
  if (paren && paren.join('') === text) {
    for (const g of paren) groups.push(expandList(g.slice(1, -1)));
  } else if (!text.includes('(') && !text.includes(')')) {
    groups.push(expandList(text));
  } else {
    throw new Error(`unreadable operator expression: ${expr}`);
  }
  let combos: string[][] = [[]];
  for (const g of groups) {
    if (g.length === 0) throw new Error(`empty operator group in: ${expr}`);
    if (combos.length * g.length > maxCombinations) throw new Error(`operator expression ${expr} gives more than ${maxCombinations} copies`);
    const next: string[][] = [];
    for (const c of combos) for (const op of g) next.push([...c, op]);
    combos = next;
  }
  return combos;
}

function expandList(list: string): string[] {
  const out: string[] = [];
  for (const part of list.split(',')) {
    if (part.length === 0) continue;
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to < from || to - from > 100_000) throw new Error(`bad operator range: ${part}`);
      for (let i = from; i <= to; i++) out.push(String(i));
    } else out.push(part);
  }
  return out;
}
