/**
 * JSON of the Data API's documents as the real service writes it: a field its schema types as
 * `number` is a Java double there, written with a fractional part even when whole (`"angle_alpha":
 * 90.0`, `"coverage": 0.0`), where JSON.stringify writes `90`. Integers stay as they are. The
 * places are read from the published schemas once per object; subtrees without such a field are
 * written by JSON.stringify itself.
 */
import { schemaText, type SchemaObject } from './schema.js';

/** Where the number-typed fields are under a schema node; undefined where there are none. */
interface Shape {
  float?: true;
  props?: Map<string, Shape>;
  items?: Shape;
}

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

function shapeOf(node: SchemaNode | undefined): Shape | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  // A field that may also be an integer (`anyOf` string/integer/number, say) keeps whole values whole.
  if (types.includes('number') && !types.includes('integer')) return { float: true };
  const out: Shape = {};
  if (node.properties) {
    for (const [k, v] of Object.entries(node.properties)) {
      const s = shapeOf(v);
      if (s) (out.props ??= new Map()).set(k, s);
    }
  }
  const items = shapeOf(node.items);
  if (items) out.items = items;
  return out.props || out.items ? out : undefined;
}

const shapes = new Map<SchemaObject, Shape | undefined>();

function shapeFor(object: SchemaObject): Shape | undefined {
  if (!shapes.has(object)) shapes.set(object, shapeOf(JSON.parse(schemaText(object)) as SchemaNode));
  return shapes.get(object);
}

/** `90` → `90.0`; a whole number too large for plain digits (`1e+21`) stays as JSON writes it. */
function floatText(v: number): string {
  const s = JSON.stringify(v);
  return /^-?\d+$/.test(s) ? `${s}.0` : s;
}

function write(v: unknown, shape: Shape | undefined): string | undefined {
  if (!shape || v === null || typeof v !== 'object') {
    if (shape?.float && typeof v === 'number' && Number.isFinite(v)) return floatText(v);
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map((x) => write(x, shape.items) ?? 'null').join(',')}]`;
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const text = write(x, shape.props?.get(k));
    // As JSON.stringify: keys whose value has no JSON form (undefined, functions) are left out.
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** A document (or a list of them) of `object` as JSON text, numbers written as the real service writes them. */
export function documentJson(object: SchemaObject, doc: unknown): string {
  const shape = shapeFor(object);
  if (Array.isArray(doc)) return `[${doc.map((d) => write(d, shape) ?? 'null').join(',')}]`;
  return write(doc, shape) ?? 'null';
}
