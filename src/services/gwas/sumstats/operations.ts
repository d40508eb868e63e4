/**
 * Every path of the summary-statistics interface: the spec's table, and the real service's routes
 * its links point to (`/chromosomes/{c}/associations/{variant}`, `/traits/{t}/studies/...`).
 */
import { first } from '../../../core/http/params.js';
import type { ServiceContext } from '../../types.js';
import { gwasErrors } from '../errors.js';
import { emptyList, itemWindow, readPage, studiesOf, studyAssociations, variantAssociations, type SumstatsCall } from './handlers.js';
import { hasP, parseBpRange, parseChromosome, parsePRange, parseTrait, parseWindow } from './params.js';
import type { Study } from './reader.js';
import { CHROM_SHIFT } from './ingest.js';
import { chromosomeOf, listLinks, renderChromosome, renderStudy, renderTrait } from './render.js';

type Json = Record<string, unknown>;
export type SumstatsOperation = (ctx: ServiceContext, call: SumstatsCall) => Promise<Json> | Json;

const P = (c: SumstatsCall, name: string) => c.params[name] as string;
const href = (h: string) => ({ href: h });

function traitsOf(studies: Study[]): string[] {
  return [...new Set(studies.flatMap((s) => s.traits))].sort();
}

async function studyOr404(ctx: ServiceContext, acc: string): Promise<Study> {
  const { studies } = await studiesOf(ctx);
  const s = studies.find((x) => x.acc === acc);
  if (!s) throw gwasErrors.notFound(`Study ${acc}`);
  return s;
}

async function traitOr404(ctx: ServiceContext, efo: string): Promise<Study[]> {
  const { studies } = await studiesOf(ctx);
  const of = studies.filter((s) => s.traits.includes(efo));
  if (of.length === 0) throw gwasErrors.notFound(`Trait ${efo}`);
  return of;
}

/** The real service refuses a study asked for under a trait it does not belong to. */
async function traitStudy(ctx: ServiceContext, efo: string, acc: string): Promise<Study> {
  const s = await studyOr404(ctx, acc);
  if (!s.traits.includes(efo)) throw gwasErrors.badRequest(`Trait-study combination does not exist! (${efo}, ${acc})`);
  return s;
}

async function chromosomeAssociations(ctx: ServiceContext, c: SumstatsCall): Promise<Json> {
  const chromosome = parseChromosome(P(c, 'chromosome'));
  const { start, end } = parseBpRange(c.query);
  const window = parseWindow(c.query, false);
  if (hasP(parsePRange(c.query))) {
    throw gwasErrors.badRequest('p_lower and p_upper are not combined with a chromosome range here; filter by p-value on /traits/{efoId}/associations or /studies/{gcstId}/associations');
  }
  const { db, studies } = await studiesOf(ctx);
  const acc = first(c.query, 'study_accession');
  const trait = first(c.query, 'trait');
  const chosen = studies.filter((s) => (!acc || s.acc === acc) && (!trait || s.traits.includes(parseTrait(trait))));
  if (!db) return emptyList(c, window, false);
  return readPage(db, c, await db.rangeSegments(chosen, chromosome, start, end), studies, window, false, false);
}

export const SUMSTATS_OPERATIONS: Record<string, SumstatsOperation> = {
  '': (_ctx, c) => ({
    _links: {
      associations: href(`${c.base}/associations`),
      traits: href(`${c.base}/traits`),
      studies: href(`${c.base}/studies`),
      chromosomes: href(`${c.base}/chromosomes`),
      variant: href(`${c.base}/variants/{variant_id}`),
    },
  }),

  '/associations': (ctx, c) => studyAssociations(ctx, c, (all) => all),
  '/associations/:variantId': (ctx, c) => variantAssociations(ctx, c, P(c, 'variantId')),

  '/traits': async (ctx, c) => {
    const { studies } = await studiesOf(ctx);
    const { items, links } = itemWindow(c, traitsOf(studies));
    return { _embedded: { traits: items.map((t) => renderTrait(t, c.base)) }, _links: listLinks(links) };
  },
  '/traits/:efoId': async (ctx, c) => {
    const efo = parseTrait(P(c, 'efoId'));
    await traitOr404(ctx, efo);
    return renderTrait(efo, c.base);
  },
  '/traits/:efoId/associations': async (ctx, c) => {
    const efo = parseTrait(P(c, 'efoId'));
    const of = await traitOr404(ctx, efo);
    return studyAssociations(ctx, c, () => of);
  },
  '/traits/:efoId/studies': async (ctx, c) => {
    const efo = parseTrait(P(c, 'efoId'));
    const of = await traitOr404(ctx, efo);
    const { items, links } = itemWindow(c, of);
    return { _embedded: { studies: items.map((s) => renderStudy(s, efo, c.base, c.catalogBase)) }, _links: listLinks(links) };
  },
  '/traits/:efoId/studies/:gcstId': async (ctx, c) => {
    const efo = parseTrait(P(c, 'efoId'));
    return renderStudy(await traitStudy(ctx, efo, P(c, 'gcstId')), efo, c.base, c.catalogBase);
  },
  '/traits/:efoId/studies/:gcstId/associations': async (ctx, c) => {
    const s = await traitStudy(ctx, parseTrait(P(c, 'efoId')), P(c, 'gcstId'));
    return studyAssociations(ctx, c, () => [s]);
  },

  // The real service lists each study once per trait, each as a one-item list.
  '/studies': async (ctx, c) => {
    const { studies } = await studiesOf(ctx);
    const { items, links } = itemWindow(c, studies);
    const nested = items.map((s) => (s.traits.length ? s.traits : [undefined]).map((t) => renderStudy(s, t, c.base, c.catalogBase)));
    return { _embedded: { studies: nested }, _links: listLinks(links) };
  },
  '/studies/:gcstId': async (ctx, c) => {
    const s = await studyOr404(ctx, P(c, 'gcstId'));
    return renderStudy(s, s.traits[0], c.base, c.catalogBase);
  },
  '/studies/:gcstId/associations': async (ctx, c) => {
    const s = await studyOr404(ctx, P(c, 'gcstId'));
    return studyAssociations(ctx, c, () => [s]);
  },

  '/chromosomes': async (ctx, c) => {
    const { studies } = await studiesOf(ctx);
    const present = [...new Set(studies.flatMap((s) => s.chromosomes))].sort((a, b) => a - b);
    return { _embedded: { chromosomes: present.map((n) => renderChromosome(n, n, c.base)) } };
  },
  '/chromosomes/:chromosome': async (ctx, c) => {
    const n = parseChromosome(P(c, 'chromosome'));
    const { studies } = await studiesOf(ctx);
    if (!studies.some((s) => s.chromosomes.includes(n))) throw gwasErrors.notFound(`Chromosome ${P(c, 'chromosome')}`);
    return renderChromosome(P(c, 'chromosome'), n, c.base);
  },
  '/chromosomes/:chromosome/associations': chromosomeAssociations,
  '/chromosomes/:chromosome/associations/:variantId': (ctx, c) => variantAssociations(ctx, c, P(c, 'variantId'), parseChromosome(P(c, 'chromosome'))),

  '/variants/:variantId': async (ctx, c) => {
    const { db } = await studiesOf(ctx);
    const vid = P(c, 'variantId');
    const r = db ? await db.variant(vid) : undefined;
    if (!r) throw gwasErrors.notFound(`Variant ${vid}`);
    const chromosome = chromosomeOf(r.k);
    return {
      variant_id: r.vid,
      chromosome,
      base_pair_location: r.k % CHROM_SHIFT,
      _links: {
        self: href(`${c.base}/variants/${encodeURIComponent(vid)}`),
        associations: href(`${c.base}/variants/${encodeURIComponent(vid)}/associations`),
        chromosome: href(`${c.base}/chromosomes/${chromosome}`),
      },
    };
  },
  '/variants/:variantId/associations': (ctx, c) => variantAssociations(ctx, c, P(c, 'variantId')),
};
