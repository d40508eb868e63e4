/**
 * Writing CIF categories through Mol*'s CIF encoder (text or BinaryCIF). Columns are typed by their
 * values, as Mol*'s own converter does, but a column only counts as numeric when every value reads
 * back unchanged (a chain id "01" or an exponent stays a string).
 */
import { getCifFieldType, type CifCategory, type CifField, type CifFile } from 'molstar/lib/mol-io/reader/cif.js';
import { CifWriter } from 'molstar/lib/mol-io/writer/cif.js';
import { classifyFloatArray, classifyIntArray } from 'molstar/lib/mol-io/common/binary-cif.js';
import { firstBlock } from './parse.js';

type WriterField = CifWriter.Field<number, unknown>;

const INT_TEXT = /^[+-]?(0|[1-9]\d*)$/;
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)$/;

function numericKind(field: CifField): 'int' | 'float' | 'str' {
  const type = getCifFieldType(field)['@type'];
  if (type === 'str') return 'str';
  if (field.binaryEncoding) return type === 'int' ? 'int' : 'float';
  const pattern = type === 'int' ? INT_TEXT : FLOAT_TEXT;
  for (let i = 0; i < field.rowCount; i++) {
    if (field.valueKind(i) === 0 && !pattern.test(field.str(i))) return 'str';
  }
  return type === 'int' ? 'int' : 'float';
}

/** A writer field that copies one column of a parsed category. */
export function copyField(name: string, field: CifField, binary: boolean): WriterField {
  const kind = binary ? numericKind(field) : 'str';
  if (kind === 'str') {
    return CifWriter.Field.str<number>(name, (k) => field.str(k), { valueKind: (k) => field.valueKind(k) });
  }
  if (kind === 'float') {
    const encoder = classifyFloatArray(field.toFloatArray({ array: Float64Array }) as unknown as Float64Array);
    return CifWriter.Field.float(name, (k) => field.float(k), { valueKind: (k) => field.valueKind(k), encoder, typedArray: Float64Array });
  }
  const encoder = classifyIntArray(field.toIntArray({ array: Int32Array }) as unknown as Int32Array);
  return CifWriter.Field.int(name, (k) => field.int(k), { valueKind: (k) => field.valueKind(k), encoder, typedArray: Int32Array });
}

/** A writer category holding the given fields over rowCount rows. */
export function writerCategory(name: string, rowCount: number, fields: WriterField[]): CifWriter.Category {
  return { name, instance: () => CifWriter.categoryInstance(fields, { rowCount }) };
}

/** A parsed category copied whole. */
export function copyCategory(cat: CifCategory, binary: boolean): CifWriter.Category {
  const fields: WriterField[] = [];
  for (const f of cat.fieldNames) {
    const field = cat.getField(f);
    if (field) fields.push(copyField(f, field, binary));
  }
  return writerCategory(cat.name, cat.rowCount, fields);
}

/** BinaryCIF of all categories of the first block (the name of the encoder goes in the file header). */
export function toBinaryCif(file: CifFile, encoder = 'biomirror (Mol* CifWriter)'): Uint8Array {
  const block = firstBlock(file);
  const enc = CifWriter.createEncoder({ binary: true, encoderName: encoder, binaryAutoClassifyEncoding: true });
  enc.startDataBlock(block.header);
  for (const name of block.categoryNames) {
    const cat = block.categories[name];
    if (cat && cat.rowCount > 0) enc.writeCategory(copyCategory(cat, true));
  }
  enc.encode();
  return enc.getData() as Uint8Array;
}
