import { describe, expect, it } from 'vitest';
import { resolveArea } from '../src/services/clinicaltrials/areas.js';
import { csvColumns, csvHeader, csvStudy } from '../src/services/clinicaltrials/csv.js';
import { enumValue } from '../src/services/clinicaltrials/enums.js';
import { EssieError, parseEssie, type Area, type Node } from '../src/services/clinicaltrials/essie.js';
import { ageDays } from '../src/services/clinicaltrials/extract.js';
import { buildTrie, prune, resolveFields, UnknownFieldError } from '../src/services/clinicaltrials/fields.js';
import { SearchCompiler, normalizeNctId } from '../src/services/clinicaltrials/search.js';
import { normalizeWords } from '../src/services/clinicaltrials/text.js';

const parse = (s: string): Node => parseEssie(s, { kind: 'text', area: 'all' }, resolveArea);

describe('Essie expressions', () => {
  it('reads words, phrases, prefixes and operators with AND binding tighter than OR', () => {
    expect(parse('heart attack')).toEqual({
      t: 'and',
      c: [
        { t: 'text', area: 'all', words: ['heart'], prefix: false },
        { t: 'text', area: 'all', words: ['attack'], prefix: false },
      ],
    });
    expect(parse('"heart attack"')).toEqual({ t: 'text', area: 'all', words: ['heart', 'attack'], prefix: false });
    expect(parse('COVID-19')).toEqual({ t: 'text', area: 'all', words: ['covid', '19'], prefix: false });
    expect(parse('onco*')).toEqual({ t: 'text', area: 'all', words: ['onco'], prefix: true });
    const n = parse('a OR b AND NOT c');
    expect(n.t).toBe('or');
    expect((n as { c: Node[] }).c[1]).toEqual({
      t: 'and',
      c: [
        { t: 'text', area: 'all', words: ['b'], prefix: false },
        { t: 'not', c: { t: 'text', area: 'all', words: ['c'], prefix: false } },
      ],
    });
    // Lower-case "and" is a word, as in Essie.
    expect((parse('salt and pepper') as { c: Node[] }).c).toHaveLength(3);
  });

  it('reads AREA[...] with text areas, structured fields, RANGE and MISSING', () => {
    expect(parse('AREA[Condition]"lung cancer"')).toEqual({ t: 'text', area: 'cond', words: ['lung', 'cancer'], prefix: false });
    expect(parse('AREA[StartDate]RANGE[2020-01, MAX]')).toEqual({ t: 'field', field: 'StartDate', op: 'range', lo: '2020-01', hi: 'MAX' });
    expect(parse('AREA[ResultsFirstPostDate]MISSING')).toEqual({ t: 'field', field: 'ResultsFirstPostDate', op: 'missing' });
    expect(parse('AREA[OverallStatus](RECRUITING OR COMPLETED)')).toEqual({
      t: 'or',
      c: [
        { t: 'field', field: 'OverallStatus', op: 'eq', value: 'RECRUITING' },
        { t: 'field', field: 'OverallStatus', op: 'eq', value: 'COMPLETED' },
      ],
    });
    expect(parse('EXPANSION[None]aspirin')).toEqual({ t: 'text', area: 'all', words: ['aspirin'], prefix: false });
  });

  it('refuses what it cannot read, saying what', () => {
    expect(() => parse('"open')).toThrow(/unterminated/);
    expect(() => parse('(a OR b')).toThrow(/missing "\)"/);
    expect(() => parse('a)')).toThrow(/unbalanced/);
    expect(() => parse('AREA[Nope]x')).toThrow(/unknown search area or field "Nope"/);
    expect(() => parse('RANGE[1,2]')).toThrow(/RANGE/);
    expect(() => parse('SEARCH[Location](x)')).toThrow(/SEARCH\[...\] is not supported/);
    expect(() => parse('a AND')).toThrow(EssieError);
    expect(parse('')).toEqual({ t: 'true' });
    expect(parse('--- ***')).toEqual({ t: 'true' });
  });
});

describe('text normalisation', () => {
  it('folds case and diacritics and splits on punctuation, like FTS5 unicode61', () => {
    expect(normalizeWords('Sjögren’s Syndrome, Type-2 (T2D) São Paulo')).toEqual(['sjogren', 's', 'syndrome', 'type', '2', 't2d', 'sao', 'paulo']);
  });
});

describe('compiling searches', () => {
  const tables = { studies: 'ct_studies_g1', docs: 'ct_docs_g1', phases: 'ct_phases_g1', text: 'ct_text_g1' };
  const areaText = Object.fromEntries(['all', 'cond', 'intr', 'locn', 'spons', 'lead', 'titles', 'outc', 'ids', 'other'].map((a) => [a, `ct_text_${a}_g1`]));
  const sqlite = new SearchCompiler('sqlite', tables);
  const pg = new SearchCompiler('postgres', { ...tables, areaText: areaText as Record<Area, string> });

  it('makes one FTS5 MATCH of text-only expressions, with binary NOT', () => {
    expect(sqlite.ftsExpression(parse('AREA[Condition]melanoma NOT AREA[InterventionName]"placebo pill"'))).toBe('({cond} : "melanoma") NOT (({intr} : "placebo pill"))');
    expect(sqlite.ftsExpression(parse('NOT melanoma'))).toBeNull();
    expect(sqlite.ftsExpression(parse('melanoma AREA[Phase]PHASE2'))).toBeNull();
  });

  it('makes tsqueries with phrases and prefixes, one per area table', () => {
    expect(pg.predicate(parse('"lung cancer" OR AREA[Condition]onco*'))).toEqual({
      sql: '(s.id IN (SELECT a.id FROM "ct_text_all_g1" a WHERE a.v @@ to_tsquery(\'simple\', ?)) OR s.id IN (SELECT a.id FROM "ct_text_cond_g1" a WHERE a.v @@ to_tsquery(\'simple\', ?)))',
      params: ["('lung' <-> 'cancer')", "'onco':*"],
    });
    expect(pg.singleAreaQuery(parse('AREA[Condition]melanoma NOT AREA[Condition]"uveal melanoma"'))).toEqual({
      area: 'cond',
      query: "('melanoma') & (!(('uveal' <-> 'melanoma')))",
    });
    expect(pg.singleAreaQuery(parse('AREA[Condition]melanoma AREA[InterventionName]placebo'))).toBeNull();
    expect(pg.pgRelevance(parse('NOT x'))).toBeUndefined();
  });

  it('checks structured values', () => {
    expect(() => sqlite.predicate(parse('AREA[Phase]PHASE7'))).toThrow(/allowed values are NA, EARLY_PHASE1/);
    expect(() => sqlite.predicate(parse('AREA[EnrollmentCount]RANGE[a,10]'))).toThrow(/whole number/);
    expect(() => sqlite.predicate(parse('AREA[MinimumAge]RANGE[MIN, old]'))).toThrow(/ages are/);
    expect(sqlite.predicate(parse('AREA[StartDate]2022'))).toEqual({ sql: '(s.start_date >= ? AND s.start_date < ?)', params: ['2022', '2022~'] });
    expect(sqlite.predicate(parse('AREA[Phase]"Phase 2"')).params).toEqual(['PHASE2']);
  });
});

describe('identifiers, enums and ages', () => {
  it('normalises NCT numbers', () => {
    expect(normalizeNctId('nct123')).toBe('NCT00000123');
    expect(normalizeNctId('NCT04852770')).toBe('NCT04852770');
    expect(normalizeNctId('NCT000000000')).toBeNull();
    expect(normalizeNctId('NCT123456789')).toBeNull();
  });
  it('reads display forms of enum values', () => {
    expect(enumValue('Active, not recruiting')).toBe('ACTIVE_NOT_RECRUITING');
    expect(enumValue('Phase 3')).toBe('PHASE3');
    expect(enumValue('early phase 1')).toBe('EARLY_PHASE1');
  });
  it('converts ages to days', () => {
    expect(ageDays('18 Years')).toBeCloseTo(6574.5);
    expect(ageDays('6 Months')).toBeCloseTo(182.625);
    expect(ageDays('N/A')).toBeNull();
  });
});

describe('fields', () => {
  it('resolves piece names, keys, paths and prefixes', () => {
    expect(resolveFields(['NCTId'])).toEqual(['protocolSection.identificationModule.nctId']);
    expect(resolveFields(['briefTitle'])).toEqual(['protocolSection.identificationModule.briefTitle']);
    expect(resolveFields(['EnrollmentCount', 'LeadSponsorName'])).toEqual(['protocolSection.designModule.enrollmentInfo.count', 'protocolSection.sponsorCollaboratorsModule.leadSponsor.name']);
    expect(resolveFields(['StartDate'])).toEqual(['protocolSection.statusModule.startDateStruct.date']);
    expect(resolveFields(['ConditionsModule'])).toEqual(['protocolSection.conditionsModule']);
    expect(resolveFields(['CentralContact*'])).toContain('protocolSection.contactsLocationsModule.centralContacts.email');
    expect(resolveFields(['resultsSection.outcomeMeasuresModule.outcomeMeasures.title'])).toEqual(['resultsSection.outcomeMeasuresModule.outcomeMeasures.title']);
    expect(() => resolveFields(['Nope'])).toThrow(UnknownFieldError);
    expect(() => resolveFields(['Bad;Name'])).toThrow(UnknownFieldError);
  });

  it('prunes arrays of objects element by element', () => {
    const study = { protocolSection: { armsInterventionsModule: { interventions: [{ name: 'A', type: 'DRUG' }, { type: 'OTHER' }] } } };
    expect(prune(study, buildTrie(resolveFields(['InterventionName'])))).toEqual({
      protocolSection: { armsInterventionsModule: { interventions: [{ name: 'A' }] } },
    });
  });
});

describe('CSV', () => {
  it('writes the registry columns with lists joined by |, quoting as RFC 4180 says', () => {
    const study = {
      protocolSection: {
        identificationModule: { nctId: 'NCT00000001', briefTitle: 'A "quoted", title', orgStudyIdInfo: { id: 'ORG-1' }, secondaryIdInfos: [{ id: 'S-2' }] },
        statusModule: { overallStatus: 'RECRUITING', startDateStruct: { date: '2020-01' } },
        conditionsModule: { conditions: ['A', 'B'] },
        armsInterventionsModule: {
          interventions: [
            { type: 'DRUG', name: 'X' },
            { type: 'OTHER', name: 'Y' },
          ],
        },
        designModule: {
          phases: ['PHASE1', 'PHASE2'],
          designInfo: { allocation: 'RANDOMIZED', interventionModel: 'PARALLEL', maskingInfo: { masking: 'DOUBLE', whoMasked: ['PARTICIPANT', 'INVESTIGATOR'] }, primaryPurpose: 'TREATMENT' },
        },
        contactsLocationsModule: { locations: [{ facility: 'F', city: 'C', country: 'Z' }] },
        eligibilityModule: { stdAges: ['ADULT', 'OLDER_ADULT'] },
      },
      hasResults: false,
    };
    const cols = csvColumns(undefined);
    expect(csvHeader(cols).split(',')).toHaveLength(30);
    const row = csvStudy(study, cols);
    expect(row).toContain('NCT00000001,"A ""quoted"", title",https://clinicaltrials.gov/study/NCT00000001,,RECRUITING,,NO,A|B,DRUG: X|OTHER: Y,');
    expect(row).toContain('"ADULT, OLDER_ADULT",PHASE1|PHASE2');
    expect(row).toContain('Allocation: RANDOMIZED|Intervention Model: PARALLEL|Masking: DOUBLE (PARTICIPANT, INVESTIGATOR)|Primary Purpose: TREATMENT');
    expect(row).toContain('ORG-1|S-2,2020-01');
    expect(row).toContain('"F, C, Z"');
    expect(csvStudy(study, csvColumns(['Study Title', 'NCT Number']))).toBe('"A ""quoted"", title",NCT00000001\r\n');
  });
});
