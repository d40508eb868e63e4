// A thread that scans the loaded polymer sequences with one pattern at a time. It holds the
// sequences (sent once per archive generation); a pattern that runs past its budget gets the
// thread terminated by its owner, so a catastrophic regular expression never blocks the server.
// A scan answers how many sequences match and which (their indexes, in list order, in one
// transferred array; only those of a window when one is given); where they match is asked for
// afterwards, for the hits a response shows.
import { parentPort } from 'node:worker_threads';

/** Matches kept per sequence. */
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
    if (m.spansOf) {
      const spans = [];
      for (const i of m.spansOf) {
        const s = data.seqs[i] ?? '';
        re.lastIndex = 0;
        const found = [];
        let x;
        while ((x = re.exec(s)) !== null) {
          found.push(x.index + 1, x.index + x[0].length);
          if (x[0].length === 0) re.lastIndex++;
          if (found.length >= 2 * PER_SEQUENCE) break;
        }
        spans.push(found);
      }
      parentPort.postMessage({ id: m.id, spans });
      return;
    }
    // Every match counted; with a window, only the matches inside it kept.
    const from = m.window ? m.window.start : 0;
    const to = m.window ? m.window.start + m.window.rows : data.seqs.length;
    const hits = new Int32Array(Math.max(0, Math.min(to, data.seqs.length) - from));
    let n = 0;
    let count = 0;
    for (let i = 0; i < data.seqs.length; i++) {
      if (data.types[i] !== m.type) continue;
      re.lastIndex = 0;
      if (re.test(data.seqs[i])) {
        if (count >= from && count < to) hits[n++] = i;
        count++;
      }
    }
    const out = hits.slice(0, n);
    parentPort.postMessage({ id: m.id, hits: out, count }, [out.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.message ? err.message : err) });
  }
});
parentPort.postMessage({ ready: true });
