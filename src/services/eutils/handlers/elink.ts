/**
 * elink (cmd=neighbor): records of another database linked to the given UIDs. Ids given as one
 * comma-separated `id` share one LinkSet; each repeated `id` parameter gets a LinkSet of its own.
 */
import type { ServiceContext } from '../../types.js';
import { backend } from '../data.js';
import { LINKS, type LinkDef } from '../links.js';
import type { Params } from '../params.js';
import { errorReply, errorThrow, header, jsonReply, xmlReply, type Reply } from '../replies.js';
import { DOCTYPE, XML_DECL } from '../xml.js';
import { asMode, inputIds, readDb, readMode } from './common.js';

interface LinkSet {
  ids: string[];
  dbs: { def: LinkDef; links: string[] }[];
}

function xml(dbfrom: string, sets: LinkSet[]): string {
  const body = sets.map((s) => {
    const dbs = s.dbs
      .map(
        (d) =>
          `    <LinkSetDb>\n      <DbTo>${d.def.to}</DbTo>\n      <LinkName>${d.def.name}</LinkName>\n${d.links.map((l) => `        <Link>\n\t\t\t\t<Id>${l}</Id>\n\t\t\t</Link>\n`).join('')}    </LinkSetDb>\n`,
      )
      .join('');
    return `  <LinkSet>\n    <DbFrom>${dbfrom}</DbFrom>\n    <IdList>\n${s.ids.map((i) => `      <Id>${i}</Id>\n`).join('')}    </IdList>\n${dbs}  </LinkSet>\n`;
  });
  return `${XML_DECL}${DOCTYPE.elink}\n<eLinkResult>\n\n${body.join('')}</eLinkResult>\n`;
}

function json(dbfrom: string, sets: LinkSet[]): unknown {
  return {
    header: header('elink'),
    linksets: sets.map((s) => {
      const o: Record<string, unknown> = { dbfrom, ids: s.ids };
      if (s.dbs.length) o.linksetdbs = s.dbs.map((d) => ({ dbto: d.def.to, linkname: d.def.name, links: d.links }));
      return o;
    }),
  };
}

export async function elink(ctx: ServiceContext, p: Params): Promise<Reply> {
  const mode = asMode(readMode(p, 'elink'));
  const dbfrom = readDb(p, 'elink', mode, 'dbfrom');
  if (typeof dbfrom !== 'string') return dbfrom;
  const cmd = p.lower('cmd') || 'neighbor';
  if (cmd !== 'neighbor') throw errorThrow('elink', mode, `Invalid cmd "${cmd}": this mirror answers cmd=neighbor`);
  const to = p.lower('db');
  const names = (p.str('linkname') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const available = LINKS.filter((l) => l.from === dbfrom);
  let defs = available.filter((l) => !to || to === 'all' || l.to === to);
  if (names.length) defs = defs.filter((l) => names.includes(l.name));
  if (!defs.length) {
    const what = names.length ? `linkname ${names.join(',')}` : `db=${to}`;
    return errorReply('elink', mode, `No links from db=${dbfrom} for ${what}; this mirror links ${available.map((l) => `${l.name} (db=${l.to})`).join(', ')}`);
  }
  const b = await backend(ctx, dbfrom);
  const input = await inputIds(ctx, p, 'elink', mode, dbfrom, b, 20);
  if (input.kind === 'reply') return input.reply;
  const bad = input.tokens.find((t) => !/^\d{1,10}$/.test(t));
  if (bad !== undefined) return errorReply('elink', mode, `Invalid uid ${bad}`);
  const sets: LinkSet[] = [];
  for (const group of input.groups) {
    const ids = group.map(Number);
    const set: LinkSet = { ids: group.map((g) => String(Number(g))), dbs: [] };
    if (b) {
      for (const def of defs) {
        const found = await def.follow(ctx, b, ids);
        const links = [...new Set(ids.flatMap((id) => found.get(id) ?? []))];
        if (links.length) set.dbs.push({ def, links });
      }
    }
    sets.push(set);
  }
  return mode === 'json' ? jsonReply(json(dbfrom, sets)) : xmlReply(xml(dbfrom, sets));
}
