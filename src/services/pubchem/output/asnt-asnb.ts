/** Compound and substance records as ASN.1: value notation (ASNT) and BER (ASNB), as PubChem serves them. */
import { berEncode } from '../../../core/asn1/ber.js';
import { asnText } from '../../../core/asn1/text.js';
import { AsnError, fromJson, type AsnValue } from '../../../core/asn1/value.js';
import { pcErrors } from '../errors.js';
import { answer, type Answer } from './render.js';
import { PC_MODULE } from './asn-schema.js';

function typed(type: 'PC-Compounds' | 'PC-Substances', records: readonly Record<string, unknown>[]): AsnValue {
  try {
    return fromJson(PC_MODULE, type, records);
  } catch (err) {
    // Records are built at load in the module's shape; one that is not cannot be written as ASN.1.
    if (err instanceof AsnError) throw pcErrors.unimplemented(`ASN.1 output of this record (${err.message})`);
    throw err;
  }
}

/** `PC-Compounds` or `PC-Substances` of the records, as ASNT or ASNB. */
export function recordsAsn(type: 'PC-Compounds' | 'PC-Substances', records: readonly Record<string, unknown>[], output: 'ASNT' | 'ASNB'): Answer {
  const value = typed(type, records);
  return output === 'ASNT' ? answer('ASNT', asnText(type, value)) : answer('ASNB', berEncode(value));
}
