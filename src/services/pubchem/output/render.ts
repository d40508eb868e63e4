/** Writing an operation's answer in the asked format. */
import type { Output } from './formats.js';
import { CONTENT_TYPES, jsonpCallback } from './formats.js';
import { documentXml } from './xml.js';
import { pcErrors } from '../errors.js';
import type { Options } from '../request.js';

export interface Answer {
  status: number;
  type: string;
  body: string | Buffer;
  /** Extra response headers (e.g. which values were computed here). */
  headers?: Record<string, string>;
}

export interface Alternatives {
  XML?: () => string;
  CSV?: () => string;
  TXT?: () => string;
}

export function answer(output: Output, body: string | Buffer, status = 200): Answer {
  return { status, type: CONTENT_TYPES[output], body };
}

/** JSON (indented as PubChem does), JSONP, generic XML, or the operation's own CSV/TXT/XML writer. */
export function renderDoc(doc: Record<string, unknown>, output: Output, options: Options, alt: Alternatives = {}, status = 200): Answer {
  switch (output) {
    case 'JSON':
      return answer(output, JSON.stringify(doc, null, 2) + '\n', status);
    case 'JSONP': {
      const cb = jsonpCallback(options.get('callback'));
      if (!cb) throw pcErrors.badOption('callback', options.get('callback') ?? '', 'a JavaScript function name');
      return answer(output, `${cb}(${JSON.stringify(doc, null, 2)});\n`, status);
    }
    case 'XML':
      return answer(output, alt.XML ? alt.XML() : documentXml(doc), status);
    case 'CSV':
      if (alt.CSV) return answer(output, alt.CSV(), status);
      break;
    case 'TXT':
      if (alt.TXT) return answer(output, alt.TXT(), status);
      break;
    default:
      break;
  }
  throw pcErrors.badOutput(output, 'this operation', ['JSON', 'XML']);
}
