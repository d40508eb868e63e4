/** ClinicalTrials.gov API v2: search and get studies. */
import { z } from 'zod';
import { getJson } from '../context.js';
import { decodeCursor, encodeCursor } from '../result.js';
import { enc, str, type ToolSpec } from './types.js';

const BASE = '/clinicaltrials/api/v2';
const DATASET = 'clinicaltrials/studies';

/** The fields an agent needs to pick a study: id, title, status, phase, conditions, sponsor. */
function compact(study: unknown): Record<string, unknown> {
  const p = ((study as Record<string, unknown>).protocolSection ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const id = p.identificationModule ?? {};
  const st = p.statusModule ?? {};
  return {
    nct_id: id.nctId,
    title: id.briefTitle,
    status: st.overallStatus,
    phases: p.designModule?.phases ?? [],
    conditions: p.conditionsModule?.conditions ?? [],
    sponsor: (p.sponsorCollaboratorsModule?.leadSponsor as Record<string, unknown> | undefined)?.name,
    start_date: (st.startDateStruct as Record<string, unknown> | undefined)?.date,
  };
}

export const trialTools: ToolSpec[] = [
  {
    name: 'trials_search',
    title: 'Search clinical trials',
    description: 'Search the ClinicalTrials.gov registry by condition, intervention, free text and overall status. Use to find studies; then trials_get for one study in full.',
    service: 'clinicaltrials',
    input: {
      condition: z.string().max(200).optional().describe('condition or disease, e.g. "melanoma"'),
      intervention: z.string().max(200).optional().describe('drug or other intervention'),
      term: z.string().max(200).optional().describe('free text over the whole record'),
      status: z.string().max(200).optional().describe('overall status(es), comma-separated, e.g. RECRUITING'),
      limit: z.number().int().min(1).max(50).default(10).describe('studies per page'),
      cursor: z.string().max(2000).optional().describe('next_cursor of a previous answer'),
    },
    async run(ctx, a) {
      const q = new URLSearchParams({ pageSize: String(a.limit), countTotal: 'true', format: 'json' });
      if (str(a.condition)) q.set('query.cond', a.condition as string);
      if (str(a.intervention)) q.set('query.intr', a.intervention as string);
      if (str(a.term)) q.set('query.term', a.term as string);
      if (str(a.status)) q.set('filter.overallStatus', a.status as string);
      const c = decodeCursor(str(a.cursor));
      if (c.token) q.set('pageToken', c.token);
      const j = (await getJson(ctx, `${BASE}/studies?${q}`, { record: 'the search', dataset: DATASET })) as {
        studies?: unknown[];
        totalCount?: number;
        nextPageToken?: string;
      };
      const items = (j.studies ?? []).map(compact);
      return {
        ids: items.map((i) => String(i.nct_id)),
        items,
        total: j.totalCount ?? null,
        next_cursor: j.nextPageToken ? encodeCursor({ token: j.nextPageToken }) : null,
      };
    },
  },
  {
    name: 'trials_get',
    title: 'Get a clinical trial',
    description: 'One ClinicalTrials.gov study by NCT number: summary, status, design, arms, eligibility and outcomes. Use once you know the NCT id.',
    service: 'clinicaltrials',
    input: {
      nct_id: z
        .string()
        .regex(/^NCT\d{8}$/, 'nct_id must look like NCT02513394')
        .describe('NCT number, e.g. NCT02513394'),
    },
    async run(ctx, a) {
      const nct = a.nct_id as string;
      const s = (await getJson(ctx, `${BASE}/studies/${enc(nct)}`, { record: `study ${nct}`, dataset: DATASET })) as Record<string, unknown>;
      const p = (s.protocolSection ?? {}) as Record<string, Record<string, unknown> | undefined>;
      const item = {
        ...compact(s),
        summary: String(p.descriptionModule?.briefSummary ?? '').slice(0, 1500),
        study_type: p.designModule?.studyType,
        enrollment: p.designModule?.enrollmentInfo,
        arms: ((p.armsInterventionsModule?.armGroups ?? []) as Record<string, unknown>[]).map((g) => ({ label: g.label, type: g.type })),
        interventions: ((p.armsInterventionsModule?.interventions ?? []) as Record<string, unknown>[]).map((g) => ({ type: g.type, name: g.name })),
        primary_outcomes: ((p.outcomesModule?.primaryOutcomes ?? []) as Record<string, unknown>[]).map((o) => o.measure),
        eligibility: String(p.eligibilityModule?.eligibilityCriteria ?? '').slice(0, 1500),
        has_results: s.hasResults,
      };
      return { ids: [nct], items: [item] };
    },
  },
];
