/**
 * Synthetic studies in the registry's JSON format, for tests and benchmarks. Everything here is
 * generated: NCT numbers from NCT90000000 up (outside the range the registry has issued), sponsors
 * named "Synthetic ...", and `derivedSection.miscInfoModule.versionHolder` set to the generation
 * date. Deterministic for a given seed.
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONDITIONS = [
  'Breast Cancer',
  'Lung Cancer',
  'Melanoma',
  'Prostate Cancer',
  'Colorectal Cancer',
  'Type 2 Diabetes',
  'Type 1 Diabetes',
  'Hypertension',
  'Heart Failure',
  'Atrial Fibrillation',
  'Asthma',
  'COPD',
  'Alzheimer Disease',
  'Parkinson Disease',
  'Multiple Sclerosis',
  'Rheumatoid Arthritis',
  'Psoriasis',
  'Crohn Disease',
  'Ulcerative Colitis',
  'HIV Infections',
  'Hepatitis C',
  'Tuberculosis',
  'Malaria',
  'COVID-19',
  'Influenza',
  'Major Depressive Disorder',
  'Schizophrenia',
  'Bipolar Disorder',
  'Autism Spectrum Disorder',
  'Obesity',
  'Chronic Kidney Disease',
  'Osteoarthritis',
  'Osteoporosis',
  'Glioblastoma',
  'Pancreatic Cancer',
  'Ovarian Cancer',
  'Leukemia',
  'Lymphoma',
  'Multiple Myeloma',
  'Sickle Cell Disease',
  'Cystic Fibrosis',
  'Epilepsy',
  'Migraine',
  'Stroke',
  'Chronic Pain',
  'Insomnia',
  'Anemia',
  'Sepsis',
  'Pneumonia',
  'Phelan-McDermid Syndrome',
];
const DRUGS = [
  'Metformin',
  'Pembrolizumab',
  'Nivolumab',
  'Atezolizumab',
  'Palbociclib',
  'Tamoxifen',
  'Letrozole',
  'Insulin Glargine',
  'Semaglutide',
  'Empagliflozin',
  'Atorvastatin',
  'Lisinopril',
  'Amlodipine',
  'Apixaban',
  'Warfarin',
  'Aspirin',
  'Ibuprofen',
  'Acetaminophen',
  'Adalimumab',
  'Infliximab',
  'Methotrexate',
  'Rituximab',
  'Trastuzumab',
  'Bevacizumab',
  'Remdesivir',
  'Dexamethasone',
  'Oxytocin',
  'Sertraline',
  'Fluoxetine',
  'Lithium',
  'Risperidone',
  'Levetiracetam',
  'Placebo',
  'Cisplatin',
  'Carboplatin',
  'Paclitaxel',
  'Docetaxel',
  'Gemcitabine',
  'Imatinib',
  'Osimertinib',
];
const TYPES = ['DRUG', 'BIOLOGICAL', 'DEVICE', 'BEHAVIORAL', 'PROCEDURE', 'OTHER'];
const CITIES: [string, string, string][] = [
  ['Boston', 'Massachusetts', 'United States'],
  ['Houston', 'Texas', 'United States'],
  ['Seattle', 'Washington', 'United States'],
  ['Chicago', 'Illinois', 'United States'],
  ['Toronto', 'Ontario', 'Canada'],
  ['London', 'England', 'United Kingdom'],
  ['Paris', 'Île-de-France', 'France'],
  ['Berlin', 'Berlin', 'Germany'],
  ['Madrid', 'Madrid', 'Spain'],
  ['Milan', 'Lombardy', 'Italy'],
  ['Tokyo', 'Tokyo', 'Japan'],
  ['Seoul', 'Seoul', 'Korea, Republic of'],
  ['Shanghai', 'Shanghai', 'China'],
  ['Sydney', 'New South Wales', 'Australia'],
  ['São Paulo', 'São Paulo', 'Brazil'],
  ['Zürich', 'Zurich', 'Switzerland'],
];
const STATUSES = ['RECRUITING', 'NOT_YET_RECRUITING', 'ENROLLING_BY_INVITATION', 'ACTIVE_NOT_RECRUITING', 'SUSPENDED', 'TERMINATED', 'COMPLETED', 'WITHDRAWN'];
const PHASES = [['EARLY_PHASE1'], ['PHASE1'], ['PHASE1', 'PHASE2'], ['PHASE2'], ['PHASE2', 'PHASE3'], ['PHASE3'], ['PHASE4'], ['NA']];
const WORDS = (
  'randomized controlled open label study evaluate efficacy safety tolerability dose response patients participants adults ' +
  'children treatment therapy outcome survival progression quality life biomarker imaging cohort follow weeks months ' +
  'primary secondary endpoint placebo arm group combination standard care clinical trial multicenter international ' +
  'pharmacokinetics adverse events response rate remission relapse screening prevention vaccine exercise diet support'
).split(' ');

export interface GenOptions {
  seed?: number;
  /** First NCT number is NCT9 followed by this many zeros plus the index. */
  start?: number;
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

/** Zipf-like pick: early items are much more frequent, as a few conditions dominate the registry. */
function skewed<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(xs.length * Math.pow(r(), 2.2))] as T;
}

function sentence(r: () => number, n: number): string {
  const w: string[] = [];
  for (let i = 0; i < n; i++) w.push(pick(r, WORDS));
  const s = w.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

function day(r: () => number, fromYear: number, toYear: number): string {
  const y = fromYear + Math.floor(r() * (toYear - fromYear + 1));
  const m = 1 + Math.floor(r() * 12);
  const d = 1 + Math.floor(r() * 28);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function nctFor(i: number, start = 0): string {
  return `NCT${String(90_000_000 + start + i).padStart(8, '0')}`;
}

export function generateStudy(i: number, opts: GenOptions = {}): Record<string, unknown> {
  const r = rng((opts.seed ?? 1) * 1_000_003 + i);
  const nctId = nctFor(i, opts.start);
  const conditions = [skewed(r, CONDITIONS)];
  if (r() < 0.3) conditions.push(pick(r, CONDITIONS));
  const drugs = [skewed(r, DRUGS)];
  if (r() < 0.5) drugs.push(pick(r, DRUGS));
  const status = pick(r, STATUSES);
  const phases = pick(r, PHASES);
  const start = r() < 0.95 ? day(r, 2005, 2025) : undefined;
  const firstPost = day(r, 2005, 2025);
  const lastUpdate = day(r, 2015, 2026);
  const enrollment = r() < 0.97 ? Math.floor(10 + r() * 2000) : undefined;
  const sponsor = `Synthetic Sponsor ${1 + Math.floor(r() * 500)}`;
  const locs = Array.from({ length: 1 + Math.floor(r() * 4) }, () => {
    const [city, state, country] = pick(r, CITIES);
    return { facility: `Synthetic Clinical Research Site ${1 + Math.floor(r() * 900)}`, city, state, country };
  });
  const hasResults = status === 'COMPLETED' && r() < 0.3;
  const study: Record<string, unknown> = {
    protocolSection: {
      identificationModule: {
        nctId,
        orgStudyIdInfo: { id: `SYN-${i}` },
        organization: { fullName: sponsor, class: 'OTHER' },
        briefTitle: `A Study of ${drugs.join(' and ')} in ${conditions[0]}`,
        officialTitle: `${sentence(r, 6).slice(0, -1)}: ${drugs.join(' Plus ')} for ${conditions.join(' and ')}`,
      },
      statusModule: {
        overallStatus: status,
        ...(start ? { startDateStruct: { date: start, type: 'ACTUAL' } } : {}),
        studyFirstPostDateStruct: { date: firstPost, type: 'ACTUAL' },
        lastUpdatePostDateStruct: { date: lastUpdate, type: 'ACTUAL' },
      },
      sponsorCollaboratorsModule: { leadSponsor: { name: sponsor, class: 'OTHER' } },
      descriptionModule: { briefSummary: `${sentence(r, 25)} ${sentence(r, 20)} ${sentence(r, 15)}` },
      conditionsModule: { conditions, keywords: [pick(r, WORDS), pick(r, WORDS)] },
      designModule: {
        studyType: 'INTERVENTIONAL',
        phases,
        designInfo: { allocation: 'RANDOMIZED', interventionModel: 'PARALLEL', primaryPurpose: 'TREATMENT', maskingInfo: { masking: 'NONE' } },
        ...(enrollment !== undefined ? { enrollmentInfo: { count: enrollment, type: 'ACTUAL' } } : {}),
      },
      armsInterventionsModule: {
        interventions: drugs.map((name) => ({ type: pick(r, TYPES), name, description: sentence(r, 10) })),
      },
      outcomesModule: { primaryOutcomes: [{ measure: sentence(r, 5).slice(0, -1), timeFrame: `${1 + Math.floor(r() * 52)} weeks` }] },
      eligibilityModule: {
        eligibilityCriteria: `Inclusion Criteria:\n\n* ${sentence(r, 8)}\n\nExclusion Criteria:\n\n* ${sentence(r, 8)}`,
        sex: pick(r, ['ALL', 'ALL', 'FEMALE', 'MALE']),
        minimumAge: `${pick(r, [18, 18, 12, 40, 65])} Years`,
        stdAges: ['ADULT', 'OLDER_ADULT'],
      },
      contactsLocationsModule: { locations: locs },
    },
    derivedSection: { miscInfoModule: { versionHolder: '2026-11-01' } },
    hasResults,
  };
  return study;
}
