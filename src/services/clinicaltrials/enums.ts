/** Enumerations of the registry's data model (OpenAPI 2.0.5); the spec's lists are subsets of these. */
export const STATUSES = [
  'ACTIVE_NOT_RECRUITING',
  'COMPLETED',
  'ENROLLING_BY_INVITATION',
  'NOT_YET_RECRUITING',
  'RECRUITING',
  'SUSPENDED',
  'TERMINATED',
  'WITHDRAWN',
  'AVAILABLE',
  'NO_LONGER_AVAILABLE',
  'TEMPORARILY_NOT_AVAILABLE',
  'APPROVED_FOR_MARKETING',
  'WITHHELD',
  'UNKNOWN',
] as const;

export const PHASES = ['NA', 'EARLY_PHASE1', 'PHASE1', 'PHASE2', 'PHASE3', 'PHASE4'] as const;
export const STUDY_TYPES = ['EXPANDED_ACCESS', 'INTERVENTIONAL', 'OBSERVATIONAL'] as const;
export const SEXES = ['FEMALE', 'MALE', 'ALL'] as const;
export const STD_AGES = ['CHILD', 'ADULT', 'OLDER_ADULT'] as const;

/** Display forms ("Active, not recruiting", "Phase 2") and API forms both map to the API value. */
export function enumValue(input: string): string {
  return input
    .trim()
    .toUpperCase()
    .replace(/[\s,/-]+/g, '_')
    .replace(/^PHASE_(\d)$/, 'PHASE$1')
    .replace(/^EARLY_PHASE_1$/, 'EARLY_PHASE1')
    .replace(/^N_A$|^NOT_APPLICABLE$/, 'NA');
}
