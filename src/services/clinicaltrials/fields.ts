/**
 * The study data model's piece names (as in the registry's "Study Data Structure"), used by
 * `fields=` to prune studies. A requested name matches a piece name, a JSON key or a dotted path,
 * case-insensitively; `Name*` matches every piece starting with Name. Branches not listed here
 * (the results modules' insides) are reachable by JSON key or dotted path.
 */
type Spec = [key: string, piece: string, children?: Spec[]];

const date = (key: string, base: string): Spec => [
  key,
  `${base}Struct`,
  [
    ['date', base],
    ['type', `${base}Type`],
  ],
];
const outcome = (key: string, base: string): Spec => [
  key,
  base,
  [
    ['measure', `${base}Measure`],
    ['description', `${base}Description`],
    ['timeFrame', `${base}TimeFrame`],
  ],
];
const browse = (key: string, p: string): Spec => [
  key,
  `${p}BrowseModule`,
  [
    [
      'meshes',
      `${p}Mesh`,
      [
        ['id', `${p}MeshId`],
        ['term', `${p}MeshTerm`],
      ],
    ],
    [
      'ancestors',
      `${p}Ancestor`,
      [
        ['id', `${p}AncestorId`],
        ['term', `${p}AncestorTerm`],
      ],
    ],
    [
      'browseLeaves',
      `${p}BrowseLeaf`,
      [
        ['id', `${p}BrowseLeafId`],
        ['name', `${p}BrowseLeafName`],
        ['asFound', `${p}BrowseLeafAsFound`],
        ['relevance', `${p}BrowseLeafRelevance`],
      ],
    ],
    [
      'browseBranches',
      `${p}BrowseBranch`,
      [
        ['abbrev', `${p}BrowseBranchAbbrev`],
        ['name', `${p}BrowseBranchName`],
      ],
    ],
  ],
];
const contact = (key: string, p: string): Spec => [
  key,
  p,
  [
    ['name', `${p}Name`],
    ['role', `${p}Role`],
    ['phone', `${p}Phone`],
    ['phoneExt', `${p}PhoneExt`],
    ['email', `${p}EMail`],
  ],
];

const TREE: Spec[] = [
  [
    'protocolSection',
    'ProtocolSection',
    [
      [
        'identificationModule',
        'IdentificationModule',
        [
          ['nctId', 'NCTId'],
          ['nctIdAliases', 'NCTIdAlias'],
          [
            'orgStudyIdInfo',
            'OrgStudyIdInfo',
            [
              ['id', 'OrgStudyId'],
              ['type', 'OrgStudyIdType'],
              ['link', 'OrgStudyIdLink'],
            ],
          ],
          [
            'secondaryIdInfos',
            'SecondaryIdInfo',
            [
              ['id', 'SecondaryId'],
              ['type', 'SecondaryIdType'],
              ['domain', 'SecondaryIdDomain'],
              ['link', 'SecondaryIdLink'],
            ],
          ],
          ['briefTitle', 'BriefTitle'],
          ['officialTitle', 'OfficialTitle'],
          ['acronym', 'Acronym'],
          [
            'organization',
            'Organization',
            [
              ['fullName', 'OrgFullName'],
              ['class', 'OrgClass'],
            ],
          ],
        ],
      ],
      [
        'statusModule',
        'StatusModule',
        [
          ['statusVerifiedDate', 'StatusVerifiedDate'],
          ['overallStatus', 'OverallStatus'],
          ['lastKnownStatus', 'LastKnownStatus'],
          ['delayedPosting', 'DelayedPosting'],
          ['whyStopped', 'WhyStopped'],
          [
            'expandedAccessInfo',
            'ExpandedAccessInfo',
            [
              ['hasExpandedAccess', 'HasExpandedAccess'],
              ['nctId', 'ExpandedAccessNCTId'],
              ['statusForNctId', 'ExpandedAccessStatusForNCTId'],
            ],
          ],
          date('startDateStruct', 'StartDate'),
          date('primaryCompletionDateStruct', 'PrimaryCompletionDate'),
          date('completionDateStruct', 'CompletionDate'),
          ['studyFirstSubmitDate', 'StudyFirstSubmitDate'],
          ['studyFirstSubmitQcDate', 'StudyFirstSubmitQCDate'],
          date('studyFirstPostDateStruct', 'StudyFirstPostDate'),
          ['resultsWaived', 'ResultsWaived'],
          ['resultsFirstSubmitDate', 'ResultsFirstSubmitDate'],
          ['resultsFirstSubmitQcDate', 'ResultsFirstSubmitQCDate'],
          date('resultsFirstPostDateStruct', 'ResultsFirstPostDate'),
          ['dispFirstSubmitDate', 'DispFirstSubmitDate'],
          ['dispFirstSubmitQcDate', 'DispFirstSubmitQCDate'],
          date('dispFirstPostDateStruct', 'DispFirstPostDate'),
          ['lastUpdateSubmitDate', 'LastUpdateSubmitDate'],
          date('lastUpdatePostDateStruct', 'LastUpdatePostDate'),
        ],
      ],
      [
        'sponsorCollaboratorsModule',
        'SponsorCollaboratorsModule',
        [
          [
            'responsibleParty',
            'ResponsibleParty',
            [
              ['type', 'ResponsiblePartyType'],
              ['investigatorFullName', 'ResponsiblePartyInvestigatorFullName'],
              ['investigatorTitle', 'ResponsiblePartyInvestigatorTitle'],
              ['investigatorAffiliation', 'ResponsiblePartyInvestigatorAffiliation'],
              ['oldNameTitle', 'ResponsiblePartyOldNameTitle'],
              ['oldOrganization', 'ResponsiblePartyOldOrganization'],
            ],
          ],
          [
            'leadSponsor',
            'LeadSponsor',
            [
              ['name', 'LeadSponsorName'],
              ['class', 'LeadSponsorClass'],
            ],
          ],
          [
            'collaborators',
            'Collaborator',
            [
              ['name', 'CollaboratorName'],
              ['class', 'CollaboratorClass'],
            ],
          ],
        ],
      ],
      [
        'oversightModule',
        'OversightModule',
        [
          ['oversightHasDmc', 'OversightHasDMC'],
          ['isFdaRegulatedDrug', 'IsFDARegulatedDrug'],
          ['isFdaRegulatedDevice', 'IsFDARegulatedDevice'],
          ['isUnapprovedDevice', 'IsUnapprovedDevice'],
          ['isPpsd', 'IsPPSD'],
          ['isUsExport', 'IsUSExport'],
          ['fdaaa801Violation', 'FDAAA801Violation'],
        ],
      ],
      [
        'descriptionModule',
        'DescriptionModule',
        [
          ['briefSummary', 'BriefSummary'],
          ['detailedDescription', 'DetailedDescription'],
        ],
      ],
      [
        'conditionsModule',
        'ConditionsModule',
        [
          ['conditions', 'Condition'],
          ['keywords', 'Keyword'],
        ],
      ],
      [
        'designModule',
        'DesignModule',
        [
          ['studyType', 'StudyType'],
          ['nPtrsToThisExpAccNctId', 'NPtrsToThisExpAccNCTId'],
          [
            'expandedAccessTypes',
            'ExpandedAccessTypes',
            [
              ['individual', 'ExpAccTypeIndividual'],
              ['intermediate', 'ExpAccTypeIntermediate'],
              ['treatment', 'ExpAccTypeTreatment'],
            ],
          ],
          ['patientRegistry', 'PatientRegistry'],
          ['targetDuration', 'TargetDuration'],
          ['phases', 'Phase'],
          [
            'designInfo',
            'DesignInfo',
            [
              ['allocation', 'DesignAllocation'],
              ['interventionModel', 'DesignInterventionModel'],
              ['interventionModelDescription', 'DesignInterventionModelDescription'],
              ['primaryPurpose', 'DesignPrimaryPurpose'],
              ['observationalModel', 'DesignObservationalModel'],
              ['timePerspective', 'DesignTimePerspective'],
              [
                'maskingInfo',
                'DesignMaskingInfo',
                [
                  ['masking', 'DesignMasking'],
                  ['maskingDescription', 'DesignMaskingDescription'],
                  ['whoMasked', 'DesignWhoMasked'],
                ],
              ],
            ],
          ],
          [
            'bioSpec',
            'BioSpec',
            [
              ['retention', 'BioSpecRetention'],
              ['description', 'BioSpecDescription'],
            ],
          ],
          [
            'enrollmentInfo',
            'EnrollmentInfo',
            [
              ['count', 'EnrollmentCount'],
              ['type', 'EnrollmentType'],
            ],
          ],
        ],
      ],
      [
        'armsInterventionsModule',
        'ArmsInterventionsModule',
        [
          [
            'armGroups',
            'ArmGroup',
            [
              ['label', 'ArmGroupLabel'],
              ['type', 'ArmGroupType'],
              ['description', 'ArmGroupDescription'],
              ['interventionNames', 'ArmGroupInterventionName'],
            ],
          ],
          [
            'interventions',
            'Intervention',
            [
              ['type', 'InterventionType'],
              ['name', 'InterventionName'],
              ['description', 'InterventionDescription'],
              ['armGroupLabels', 'InterventionArmGroupLabel'],
              ['otherNames', 'InterventionOtherName'],
            ],
          ],
        ],
      ],
      ['outcomesModule', 'OutcomesModule', [outcome('primaryOutcomes', 'PrimaryOutcome'), outcome('secondaryOutcomes', 'SecondaryOutcome'), outcome('otherOutcomes', 'OtherOutcome')]],
      [
        'eligibilityModule',
        'EligibilityModule',
        [
          ['eligibilityCriteria', 'EligibilityCriteria'],
          ['healthyVolunteers', 'HealthyVolunteers'],
          ['sex', 'Sex'],
          ['genderBased', 'GenderBased'],
          ['genderDescription', 'GenderDescription'],
          ['minimumAge', 'MinimumAge'],
          ['maximumAge', 'MaximumAge'],
          ['stdAges', 'StdAge'],
          ['studyPopulation', 'StudyPopulation'],
          ['samplingMethod', 'SamplingMethod'],
        ],
      ],
      [
        'contactsLocationsModule',
        'ContactsLocationsModule',
        [
          contact('centralContacts', 'CentralContact'),
          [
            'overallOfficials',
            'OverallOfficial',
            [
              ['name', 'OverallOfficialName'],
              ['affiliation', 'OverallOfficialAffiliation'],
              ['role', 'OverallOfficialRole'],
            ],
          ],
          [
            'locations',
            'Location',
            [
              ['facility', 'LocationFacility'],
              ['status', 'LocationStatus'],
              ['city', 'LocationCity'],
              ['state', 'LocationState'],
              ['zip', 'LocationZip'],
              ['country', 'LocationCountry'],
              contact('contacts', 'LocationContact'),
              ['geoPoint', 'LocationGeoPoint'],
            ],
          ],
        ],
      ],
      [
        'referencesModule',
        'ReferencesModule',
        [
          [
            'references',
            'Reference',
            [
              ['pmid', 'ReferencePMID'],
              ['type', 'ReferenceType'],
              ['citation', 'ReferenceCitation'],
              [
                'retractions',
                'Retraction',
                [
                  ['pmid', 'RetractionPMID'],
                  ['source', 'RetractionSource'],
                ],
              ],
            ],
          ],
          [
            'seeAlsoLinks',
            'SeeAlsoLink',
            [
              ['label', 'SeeAlsoLinkLabel'],
              ['url', 'SeeAlsoLinkURL'],
            ],
          ],
          [
            'availIpds',
            'AvailIPD',
            [
              ['id', 'AvailIPDId'],
              ['type', 'AvailIPDType'],
              ['url', 'AvailIPDURL'],
              ['comment', 'AvailIPDComment'],
            ],
          ],
        ],
      ],
      [
        'ipdSharingStatementModule',
        'IPDSharingStatementModule',
        [
          ['ipdSharing', 'IPDSharing'],
          ['description', 'IPDSharingDescription'],
          ['infoTypes', 'IPDSharingInfoType'],
          ['timeFrame', 'IPDSharingTimeFrame'],
          ['accessCriteria', 'IPDSharingAccessCriteria'],
          ['url', 'IPDSharingURL'],
        ],
      ],
    ],
  ],
  [
    'resultsSection',
    'ResultsSection',
    [
      ['participantFlowModule', 'ParticipantFlowModule'],
      ['baselineCharacteristicsModule', 'BaselineCharacteristicsModule'],
      ['outcomeMeasuresModule', 'OutcomeMeasuresModule'],
      ['adverseEventsModule', 'AdverseEventsModule'],
      ['moreInfoModule', 'MoreInfoModule'],
    ],
  ],
  ['annotationSection', 'AnnotationSection', [['annotationModule', 'AnnotationModule']]],
  [
    'documentSection',
    'DocumentSection',
    [
      [
        'largeDocumentModule',
        'LargeDocumentModule',
        [
          ['noSap', 'NoSAP'],
          [
            'largeDocs',
            'LargeDoc',
            [
              ['typeAbbrev', 'LargeDocTypeAbbrev'],
              ['hasProtocol', 'LargeDocHasProtocol'],
              ['hasSap', 'LargeDocHasSAP'],
              ['hasIcf', 'LargeDocHasICF'],
              ['label', 'LargeDocLabel'],
              ['date', 'LargeDocDate'],
              ['uploadDate', 'LargeDocUploadDate'],
              ['filename', 'LargeDocFilename'],
              ['size', 'LargeDocSize'],
            ],
          ],
        ],
      ],
    ],
  ],
  [
    'derivedSection',
    'DerivedSection',
    [
      [
        'miscInfoModule',
        'MiscInfoModule',
        [
          ['versionHolder', 'VersionHolder'],
          ['removedCountries', 'RemovedCountry'],
          ['submissionTracking', 'SubmissionTracking'],
        ],
      ],
      browse('conditionBrowseModule', 'Condition'),
      browse('interventionBrowseModule', 'Intervention'),
    ],
  ],
  ['hasResults', 'HasResults'],
];

/** Every known piece: its upper-cased names (piece, key, dotted path) and its dotted path. */
interface Piece {
  path: string;
  names: string[];
}

function flatten(specs: Spec[], parent: string, out: Piece[]): Piece[] {
  for (const [key, piece, children] of specs) {
    const path = parent ? `${parent}.${key}` : key;
    out.push({ path, names: [piece.toUpperCase(), path.toUpperCase()] });
    if (children) flatten(children, path, out);
  }
  return out;
}

const PIECES = flatten(TREE, '', []);
const BY_NAME = new Map<string, string[]>();
for (const p of PIECES) {
  for (const n of p.names) {
    const list = BY_NAME.get(n) ?? [];
    if (!list.includes(p.path)) list.push(p.path);
    BY_NAME.set(n, list);
  }
}
// A bare JSON key (e.g. "briefTitle") names the piece when it is unambiguous.
for (const p of PIECES) {
  const key = (p.path.split('.').pop() ?? '').toUpperCase();
  if (!BY_NAME.has(key)) BY_NAME.set(key, [p.path]);
}

export class UnknownFieldError extends Error {
  constructor(readonly field: string) {
    super(`unknown field "${field}"`);
  }
}

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9\-. ]*\*?$/;

/** Resolves the `fields` list to dotted paths; throws UnknownFieldError for a name that names nothing. */
export function resolveFields(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of names) {
    const name = raw.trim();
    if (!FIELD_NAME.test(name)) throw new UnknownFieldError(raw);
    const upper = name.toUpperCase();
    if (upper.endsWith('*')) {
      const stem = upper.slice(0, -1);
      const hits = PIECES.filter((p) => p.names[0]?.startsWith(stem));
      if (hits.length === 0) throw new UnknownFieldError(raw);
      for (const h of hits) out.add(h.path);
      continue;
    }
    const known = BY_NAME.get(upper);
    if (known) {
      for (const k of known) out.add(k);
      continue;
    }
    // A dotted path below a branch this table does not spell out (inside the results modules).
    if (name.includes('.') && PIECES.some((p) => upper.startsWith(p.path.toUpperCase() + '.'))) {
      out.add(name);
      continue;
    }
    throw new UnknownFieldError(raw);
  }
  return [...out];
}

type Trie = Map<string, Trie | true>;

export function buildTrie(paths: readonly string[]): Trie {
  const root: Trie = new Map();
  for (const p of paths) {
    const parts = p.split('.');
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node.set(part, true);
        return;
      }
      const next = node.get(part);
      if (next === true) return;
      if (next) node = next;
      else {
        const created: Trie = new Map();
        node.set(part, created);
        node = created;
      }
    });
  }
  return root;
}

function matchKey(trie: Trie, key: string): Trie | true | undefined {
  return trie.get(key) ?? trie.get(key.toLowerCase()) ?? [...trie.entries()].find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1];
}

/** Keeps only the selected branches of a study, with its structure; empty objects disappear. */
export function prune(value: unknown, trie: Trie): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => prune(v, trie)).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const sel = matchKey(trie, k);
    if (sel === undefined) continue;
    const kept = sel === true ? v : prune(v, sel);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length ? out : undefined;
}
