/**
 * The registry's CSV download: its 30 columns in its order, one row per study, lists joined with
 * "|" as the registry does.
 */
import { csvRow } from '../../core/http/csv.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const s = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const joined = (parts: string[], sep: string) => parts.filter((p) => p.length > 0).join(sep);

interface Sections {
  p: Obj;
  id: Obj;
  status: Obj;
  design: Obj;
  study: Obj;
}

function sections(study: Obj): Sections {
  const p = obj(study.protocolSection);
  return { p, id: obj(p.identificationModule), status: obj(p.statusModule), design: obj(p.designModule), study };
}

const date = (x: Sections, key: string) => s(obj(x.status[key]).date);

function outcomes(x: Sections, key: string): string {
  return arr(obj(x.p.outcomesModule)[key])
    .map((o) => joined([s(o.measure), s(o.description), s(o.timeFrame)], ', '))
    .join('|');
}

function design(x: Sections): string {
  const info = obj(x.design.designInfo);
  const masking = obj(info.maskingInfo);
  const who = strs(masking.whoMasked);
  const parts: [string, string][] = [
    ['Allocation', s(info.allocation)],
    ['Intervention Model', s(info.interventionModel)],
    ['Observational Model', s(info.observationalModel)],
    ['Time Perspective', s(info.timePerspective)],
    ['Masking', s(masking.masking) + (who.length ? ` (${who.join(', ')})` : '')],
    ['Primary Purpose', s(info.primaryPurpose)],
  ];
  return parts
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}: ${v}`)
    .join('|');
}

function documents(x: Sections, nctId: string): string {
  const docs = arr(obj(obj(x.study.documentSection).largeDocumentModule).largeDocs);
  return docs
    .map((d) => {
      const label =
        s(d.label) || joined([d.hasProtocol === true ? 'Study Protocol' : '', d.hasSap === true ? 'Statistical Analysis Plan' : '', d.hasIcf === true ? 'Informed Consent Form' : ''], ' and ');
      const url = s(d.filename) ? `https://storage.googleapis.com/ctgov2-large-docs/${nctId.slice(-2)}/${nctId}/${s(d.filename)}` : '';
      return joined([label, url], ', ');
    })
    .join('|');
}

export interface CsvColumn {
  name: string;
  value(x: Sections): string;
}

export const CSV_COLUMNS: readonly CsvColumn[] = [
  { name: 'NCT Number', value: (x) => s(x.id.nctId) },
  { name: 'Study Title', value: (x) => s(x.id.briefTitle) },
  { name: 'Study URL', value: (x) => `https://clinicaltrials.gov/study/${s(x.id.nctId)}` },
  { name: 'Acronym', value: (x) => s(x.id.acronym) },
  { name: 'Study Status', value: (x) => s(x.status.overallStatus) },
  { name: 'Brief Summary', value: (x) => s(obj(x.p.descriptionModule).briefSummary) },
  { name: 'Study Results', value: (x) => (x.study.hasResults === true ? 'YES' : 'NO') },
  { name: 'Conditions', value: (x) => strs(obj(x.p.conditionsModule).conditions).join('|') },
  {
    name: 'Interventions',
    value: (x) =>
      arr(obj(x.p.armsInterventionsModule).interventions)
        .map((i) => joined([s(i.type), s(i.name)], ': '))
        .join('|'),
  },
  { name: 'Primary Outcome Measures', value: (x) => outcomes(x, 'primaryOutcomes') },
  { name: 'Secondary Outcome Measures', value: (x) => outcomes(x, 'secondaryOutcomes') },
  { name: 'Other Outcome Measures', value: (x) => outcomes(x, 'otherOutcomes') },
  { name: 'Sponsor', value: (x) => s(obj(obj(x.p.sponsorCollaboratorsModule).leadSponsor).name) },
  {
    name: 'Collaborators',
    value: (x) =>
      arr(obj(x.p.sponsorCollaboratorsModule).collaborators)
        .map((c) => s(c.name))
        .join('|'),
  },
  { name: 'Sex', value: (x) => s(obj(x.p.eligibilityModule).sex) },
  { name: 'Age', value: (x) => strs(obj(x.p.eligibilityModule).stdAges).join(', ') },
  { name: 'Phases', value: (x) => strs(x.design.phases).join('|') },
  { name: 'Enrollment', value: (x) => s(obj(x.design.enrollmentInfo).count) },
  { name: 'Funder Type', value: (x) => s(obj(obj(x.p.sponsorCollaboratorsModule).leadSponsor).class) },
  { name: 'Study Type', value: (x) => s(x.design.studyType) },
  { name: 'Study Design', value: design },
  {
    name: 'Other IDs',
    value: (x) => joined([s(obj(x.id.orgStudyIdInfo).id), ...arr(x.id.secondaryIdInfos).map((i) => s(i.id))], '|'),
  },
  { name: 'Start Date', value: (x) => date(x, 'startDateStruct') },
  { name: 'Primary Completion Date', value: (x) => date(x, 'primaryCompletionDateStruct') },
  { name: 'Completion Date', value: (x) => date(x, 'completionDateStruct') },
  { name: 'First Posted', value: (x) => date(x, 'studyFirstPostDateStruct') },
  { name: 'Results First Posted', value: (x) => date(x, 'resultsFirstPostDateStruct') },
  { name: 'Last Update Posted', value: (x) => date(x, 'lastUpdatePostDateStruct') },
  {
    name: 'Locations',
    value: (x) =>
      arr(obj(x.p.contactsLocationsModule).locations)
        .map((l) => joined([s(l.facility), s(l.city), s(l.state), s(l.zip), s(l.country)], ', '))
        .join('|'),
  },
  { name: 'Study Documents', value: (x) => documents(x, s(x.id.nctId)) },
];

export function csvColumns(names: readonly string[] | undefined): readonly CsvColumn[] {
  if (!names) return CSV_COLUMNS;
  return names.map((n) => CSV_COLUMNS.find((c) => c.name === n) as CsvColumn);
}

export function csvHeader(cols: readonly CsvColumn[]): string {
  return csvRow(cols.map((c) => c.name));
}

export function csvStudy(study: unknown, cols: readonly CsvColumn[]): string {
  const x = sections(obj(study));
  return csvRow(cols.map((c) => c.value(x)));
}
