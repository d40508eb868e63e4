// A thread that scans the loaded polymer sequences with one pattern at a time. It holds the
// sequences (sent once per archive generation); a pattern that runs past its budget gets the
// thread terminated by its owner, so a catastrophic regular expression never blocks the server.
import { parentPort } from 'node:worker_threads';

/** Matches kept per sequence, and sequences per answer (the rest only counted). */
const PER_SEQUENCE = 100;

let data;
parentPort.on('message', (m) => {
  if (m.load) {
    data = { seqs: m.load.text.split('\n'), types: m.load.types };
    parentPort.postMessage({ id: m.id, loaded: true });
    return;
  }
  try {
    const re = new RegExp(m.source, 'g');
    const hits = [];
    for (let i = 0; i < data.seqs.length; i++) {
      if (data.types[i] !== m.type) continue;
      const s = data.seqs[i];
      re.lastIndex = 0;
      const spans = [];
      let x;
      while ((x = re.exec(s)) !== null) {
        spans.push(x.index + 1, x.index + x[0].length);
        if (x[0].length === 0) re.lastIndex++;
        if (spans.length >= 2 * PER_SEQUENCE) break;
      }
      if (spans.length) hits.push([i, spans]);
    }
    parentPort.postMessage({ id: m.id, hits });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.message ? err.message : err) });
  }
});
parentPort.postMessage({ ready: true });
