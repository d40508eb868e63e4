/** einfo: the databases served, or one database's record count, last update, fields and links. */
import type { ServiceContext } from '../../types.js';
import { DB_NAMES, backend, dbBuild, isDbName, lastUpdate, type DbName } from '../data.js';
import { LINKS } from '../links.js';
import type { Params } from '../params.js';
import { errorReply, header, jsonReply, xmlReply, type Reply } from '../replies.js';
import { DOCTYPE, XML_DECL, el } from '../xml.js';
import { asMode, readMode } from './common.js';

const MENU: Record<DbName, { menu: string; description: string }> = {
  gene: { menu: 'Gene', description: 'Gene database' },
  clinvar: { menu: 'ClinVar', description: 'ClinVar Database' },
};

interface FieldInfo {
  Name: string;
  FullName: string;
  Description: string;
  TermCount: string;
  IsDate: string;
  IsNumerical: string;
  SingleToken: string;
  Hierarchy: string;
  IsHidden: string;
  IsRangable?: string;
  IsTruncatable?: string;
}

async function dbInfo(ctx: ServiceContext, db: DbName, v2: boolean) {
  const b = await backend(ctx, db);
  const terms = b ? await b.searcher.termCounts() : new Map<number, number>();
  const yn = (x: boolean | undefined) => (x ? 'Y' : 'N');
  const fields: FieldInfo[] = (b?.def.fields ?? []).map((f) => {
    const codes = f.name === 'ALL' ? [...terms.keys()] : f.subs.map((s) => s.code);
    const info: FieldInfo = {
      Name: f.name,
      FullName: f.fullName,
      Description: f.description,
      TermCount: String(codes.reduce((a, c) => a + (terms.get(c) ?? 0), 0)),
      IsDate: 'N',
      IsNumerical: yn(f.numerical),
      SingleToken: yn(f.singleToken),
      Hierarchy: 'N',
      IsHidden: yn(f.uid),
    };
    if (v2) Object.assign(info, { IsRangable: 'N', IsTruncatable: yn(!f.uid) });
    return info;
  });
  return {
    DbName: db,
    MenuName: MENU[db].menu,
    Description: MENU[db].description,
    DbBuild: b ? dbBuild(b) : '',
    Count: String(b ? await b.searcher.total() : 0),
    LastUpdate: b ? lastUpdate(b) : '',
    fields,
    links: LINKS.filter((l) => l.from === db).map((l) => ({ Name: l.name, Menu: l.menu, Description: l.description, DbTo: l.to })),
  };
}

export async function einfo(ctx: ServiceContext, p: Params): Promise<Reply> {
  const mode = asMode(readMode(p, 'einfo'));
  const db = p.lower('db');
  if (!db) {
    if (mode === 'json') return jsonReply({ header: header('einfo'), einforesult: { dblist: [...DB_NAMES] } });
    return xmlReply(`${XML_DECL}${DOCTYPE.einfo}\n<eInfoResult>\n<DbList>\n\n${DB_NAMES.map((d) => `\t<DbName>${d}</DbName>\n`).join('')}</DbList>\n\n</eInfoResult>\n`);
  }
  if (!isDbName(db)) return errorReply('einfo', mode, `Can not retrieve DbInfo for db=${db} (this mirror serves db=gene and db=clinvar)`);
  const i = await dbInfo(ctx, db, p.str('version') === '2.0');
  if (mode === 'json') {
    const lc = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));
    const { fields, links, ...rest } = i;
    return jsonReply({ header: header('einfo'), einforesult: { dbinfo: [{ ...lc(rest), fieldlist: fields.map(lc), linklist: links.map(lc) }] } });
  }
  const field = (f: FieldInfo) =>
    `\t\t<Field>\n${Object.entries(f)
      .map(([k, v]) => `\t\t\t${el(k, v as string)}\n`)
      .join('')}\t\t</Field>\n`;
  const link = (l: Record<string, string>) =>
    `\t\t\t<Link>\n${Object.entries(l)
      .map(([k, v]) => `\t\t\t\t${el(k, v)}\n`)
      .join('')}\t\t\t</Link>\n`;
  const head = ['DbName', 'MenuName', 'Description', 'DbBuild', 'Count', 'LastUpdate'] as const;
  return xmlReply(
    `${XML_DECL}${DOCTYPE.einfo}\n<eInfoResult>\n\t<DbInfo>\n${head.map((k) => `\t${el(k, i[k])}\n`).join('')}\t<FieldList>\n${i.fields.map(field).join('')}\t</FieldList>\n\t<LinkList>\n${i.links.map(link).join('')}\t\t</LinkList>\n\t</DbInfo>\n\n</eInfoResult>\n`,
  );
}
