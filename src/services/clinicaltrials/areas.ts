/**
 * The names `AREA[...]` accepts: search areas and text fields map to an indexed text area;
 * structured fields map to columns (see search.ts for how their values are read).
 */
import type { Area, Context } from './essie.js';

const TEXT: Record<string, Area> = {
  BASICSEARCH: 'all',
  CONDITIONSEARCH: 'cond',
  CONDITION: 'cond',
  KEYWORD: 'cond',
  CONDITIONMESHTERM: 'cond',
  CONDITIONANCESTORTERM: 'cond',
  INTERVENTIONSEARCH: 'intr',
  INTERVENTIONNAME: 'intr',
  INTERVENTIONOTHERNAME: 'intr',
  INTERVENTIONMESHTERM: 'intr',
  INTERVENTIONANCESTORTERM: 'intr',
  LOCATIONSEARCH: 'locn',
  LOCATIONFACILITY: 'locn',
  LOCATIONCITY: 'locn',
  LOCATIONSTATE: 'locn',
  LOCATIONZIP: 'locn',
  LOCATIONCOUNTRY: 'locn',
  SPONSORSEARCH: 'spons',
  COLLABORATORNAME: 'spons',
  LEADSPONSORNAME: 'lead',
  TITLESEARCH: 'titles',
  BRIEFTITLE: 'titles',
  OFFICIALTITLE: 'titles',
  ACRONYM: 'titles',
  OUTCOMESEARCH: 'outc',
  PRIMARYOUTCOMEMEASURE: 'outc',
  SECONDARYOUTCOMEMEASURE: 'outc',
  OTHEROUTCOMEMEASURE: 'outc',
  IDSEARCH: 'ids',
  ORGSTUDYID: 'ids',
  SECONDARYID: 'ids',
  NCTIDALIAS: 'ids',
  BRIEFSUMMARY: 'other',
  DETAILEDDESCRIPTION: 'other',
  ELIGIBILITYCRITERIA: 'other',
  ARMGROUPLABEL: 'other',
  ARMGROUPDESCRIPTION: 'other',
  OVERALLOFFICIALNAME: 'other',
  ORGFULLNAME: 'other',
};

export type FieldType = 'enum' | 'phase' | 'bool' | 'date' | 'int' | 'age' | 'id' | 'stdage';

export interface StructuredField {
  name: string;
  type: FieldType;
  column: string;
}

const FIELDS: StructuredField[] = [
  { name: 'OverallStatus', type: 'enum', column: 'overall_status' },
  { name: 'Phase', type: 'phase', column: 'phase' },
  { name: 'StudyType', type: 'enum', column: 'study_type' },
  { name: 'Sex', type: 'enum', column: 'sex' },
  { name: 'HasResults', type: 'bool', column: 'has_results' },
  { name: 'HealthyVolunteers', type: 'bool', column: 'healthy_volunteers' },
  { name: 'StdAge', type: 'stdage', column: 'std_ages' },
  { name: 'StartDate', type: 'date', column: 'start_date' },
  { name: 'PrimaryCompletionDate', type: 'date', column: 'primary_completion_date' },
  { name: 'CompletionDate', type: 'date', column: 'completion_date' },
  { name: 'StudyFirstPostDate', type: 'date', column: 'study_first_post_date' },
  { name: 'LastUpdatePostDate', type: 'date', column: 'last_update_post_date' },
  { name: 'ResultsFirstPostDate', type: 'date', column: 'results_first_post_date' },
  { name: 'EnrollmentCount', type: 'int', column: 'enrollment_count' },
  { name: 'MinimumAge', type: 'age', column: 'min_age_days' },
  { name: 'MaximumAge', type: 'age', column: 'max_age_days' },
  { name: 'NCTId', type: 'id', column: 'nct_id' },
];

const BY_NAME = new Map(FIELDS.map((f) => [f.name.toUpperCase(), f]));

export function structuredField(name: string): StructuredField | undefined {
  return BY_NAME.get(name.toUpperCase());
}

export function resolveArea(name: string): Context | undefined {
  const key = name.replace(/\s+/g, '').toUpperCase();
  const f = BY_NAME.get(key);
  if (f) return { kind: 'field', field: f.name };
  const area = TEXT[key];
  return area ? { kind: 'text', area } : undefined;
}

/** The query parameters and the area each searches. */
export const QUERY_PARAMS: Readonly<Record<string, Area>> = {
  'query.cond': 'cond',
  'query.term': 'all',
  'query.locn': 'locn',
  'query.titles': 'titles',
  'query.intr': 'intr',
  'query.outc': 'outc',
  'query.spons': 'spons',
  'query.lead': 'lead',
  'query.id': 'ids',
  'query.patient': 'all',
};
