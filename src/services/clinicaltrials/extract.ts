/**
 * What is indexed of a study: the columns filtered and sorted on, and the text of each search area.
 * The study itself is stored whole, exactly as loaded.
 */
import type { Area } from './essie.js';

export type Study = Record<string, unknown>;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const strs = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');
const names = (v: unknown, key: string): string[] => arr(v).flatMap((x) => (typeof obj(x)[key] === 'string' ? [obj(x)[key] as string] : []));

export interface StudyColumns {
  nctId: string;
  overallStatus: string | null;
  studyType: string | null;
  sex: string | null;
  hasResults: number;
  healthyVolunteers: number | null;
  stdAges: string | null;
  phases: string[];
  startDate: string | null;
  primaryCompletionDate: string | null;
  completionDate: string | null;
  studyFirstPostDate: string | null;
  lastUpdatePostDate: string | null;
  resultsFirstPostDate: string | null;
  enrollmentCount: number | null;
  minAgeDays: number | null;
  maxAgeDays: number | null;
  aliases: string[];
  versionHolder: string | null;
}

const UNIT_DAYS: Record<string, number> = {
  year: 365.25,
  month: 365.25 / 12,
  week: 7,
  day: 1,
  hour: 1 / 24,
  minute: 1 / 1440,
};

/** "18 Years" -> days, so ages in different units compare. */
export function ageDays(text: string | null): number | null {
  if (!text) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(year|month|week|day|hour|minute)s?\s*$/i.exec(text);
  if (!m) return null;
  return Number(m[1]) * (UNIT_DAYS[(m[2] as string).toLowerCase()] as number);
}

export const NCT_ID = /^NCT\d{8}$/;

export function nctIdOf(study: unknown): string | null {
  return str(obj(obj(obj(study).protocolSection).identificationModule).nctId);
}

export function columns(study: Study): StudyColumns {
  const p = obj(study.protocolSection);
  const id = obj(p.identificationModule);
  const status = obj(p.statusModule);
  const design = obj(p.designModule);
  const elig = obj(p.eligibilityModule);
  const date = (k: string) => str(obj(status[k]).date);
  const count = obj(design.enrollmentInfo).count;
  const hv = elig.healthyVolunteers;
  const ages = strs(elig.stdAges);
  return {
    nctId: str(id.nctId) ?? '',
    overallStatus: str(status.overallStatus),
    studyType: str(design.studyType),
    sex: str(elig.sex),
    hasResults: study.hasResults === true || (study.hasResults === undefined && study.resultsSection !== undefined) ? 1 : 0,
    healthyVolunteers: typeof hv === 'boolean' ? (hv ? 1 : 0) : null,
    stdAges: ages.length ? `|${ages.join('|')}|` : null,
    phases: strs(design.phases),
    startDate: date('startDateStruct'),
    primaryCompletionDate: date('primaryCompletionDateStruct'),
    completionDate: date('completionDateStruct'),
    studyFirstPostDate: date('studyFirstPostDateStruct'),
    lastUpdatePostDate: date('lastUpdatePostDateStruct'),
    resultsFirstPostDate: date('resultsFirstPostDateStruct'),
    enrollmentCount: typeof count === 'number' && Number.isFinite(count) ? Math.trunc(count) : null,
    minAgeDays: ageDays(str(elig.minimumAge)),
    maxAgeDays: ageDays(str(elig.maximumAge)),
    aliases: strs(id.nctIdAliases),
    versionHolder: str(obj(obj(study.derivedSection).miscInfoModule).versionHolder),
  };
}

/** The text of each search area (the registry's ConditionSearch, InterventionSearch, ... areas). */
export function areaTexts(study: Study): Record<Exclude<Area, 'all'>, string> {
  const p = obj(study.protocolSection);
  const d = obj(study.derivedSection);
  const id = obj(p.identificationModule);
  const sponsors = obj(p.sponsorCollaboratorsModule);
  const conds = obj(p.conditionsModule);
  const arms = obj(p.armsInterventionsModule);
  const outcomes = obj(p.outcomesModule);
  const contacts = obj(p.contactsLocationsModule);
  const cb = obj(d.conditionBrowseModule);
  const ib = obj(d.interventionBrowseModule);
  const desc = obj(p.descriptionModule);
  const elig = obj(p.eligibilityModule);
  const interventions = arr(arms.interventions).map(obj);
  const join = (xs: (string | null | undefined)[]) => xs.filter((x): x is string => !!x).join(' \n ');
  return {
    cond: join([...strs(conds.conditions), ...strs(conds.keywords), ...names(cb.meshes, 'term'), ...names(cb.ancestors, 'term')]),
    intr: join([...interventions.flatMap((i) => [str(i.name), ...strs(i.otherNames)]), ...names(ib.meshes, 'term'), ...names(ib.ancestors, 'term')]),
    locn: join(arr(contacts.locations).flatMap((l) => ['facility', 'city', 'state', 'zip', 'country'].map((k) => str(obj(l)[k])))),
    spons: join([str(obj(sponsors.leadSponsor).name), ...names(sponsors.collaborators, 'name')]),
    lead: join([str(obj(sponsors.leadSponsor).name)]),
    titles: join([str(id.briefTitle), str(id.officialTitle), str(id.acronym)]),
    outc: join(['primaryOutcomes', 'secondaryOutcomes', 'otherOutcomes'].flatMap((k) => arr(outcomes[k]).flatMap((o) => [str(obj(o).measure), str(obj(o).description)]))),
    ids: join([str(id.nctId), ...strs(id.nctIdAliases), str(obj(id.orgStudyIdInfo).id), ...names(id.secondaryIdInfos, 'id')]),
    other: join([
      str(desc.briefSummary),
      str(desc.detailedDescription),
      str(elig.eligibilityCriteria),
      ...arr(arms.armGroups).flatMap((a) => [str(obj(a).label), str(obj(a).description)]),
      ...interventions.map((i) => str(i.description)),
      ...names(contacts.overallOfficials, 'name'),
      ...names(contacts.overallOfficials, 'affiliation'),
      str(obj(id.organization).fullName),
    ]),
  };
}

export const AREAS: readonly Exclude<Area, 'all'>[] = ['cond', 'intr', 'locn', 'spons', 'lead', 'titles', 'outc', 'ids', 'other'];
