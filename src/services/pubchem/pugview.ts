/**
 * PUG View records (`{"Record": {RecordType, RecordNumber, RecordTitle, Section[], Reference[]}}`).
 * The sections the bulk data can fill are built from the compound's stored values (structure,
 * names and identifiers, computed properties, bioassay results); annotation sections come from
 * PUG View records loaded with the compounds, merged in with their references renumbered.
 * `heading=` keeps the sections of that heading (at any depth) and their parents.
 */
import type { Props } from './chem/properties.js';
import { pcErrors } from './errors.js';

export interface Info {
  ReferenceNumber: number;
  Name?: string;
  Reference?: string[];
  Value: Record<string, unknown>;
}

export interface Section {
  TOCHeading: string;
  Description?: string;
  Section?: Section[];
  Information?: Info[];
  [key: string]: unknown;
}

export interface ViewRecord {
  RecordType: string;
  RecordNumber: number;
  RecordTitle?: string;
  Section: Section[];
  Reference: Record<string, unknown>[];
}

/** The spec's annotation headings, the headings of the sections built here, and PubChem sub-headings users ask for. */
export const KNOWN_HEADINGS = [
  'Chemical and Physical Properties',
  'Drug and Medication Information',
  'Pharmacology and Biochemistry',
  'Safety and Hazards',
  'Toxicity',
  'Literature',
  'Patents',
  'Biomolecular Interactions and Pathways',
  'Structures',
  '2D Structure',
  'Names and Identifiers',
  'Computed Descriptors',
  'IUPAC Name',
  'InChI',
  'InChIKey',
  'SMILES',
  'Molecular Formula',
  'Synonyms',
  'Depositor-Supplied Synonyms',
  'Computed Properties',
  'Experimental Properties',
  'Physical Description',
  'Color/Form',
  'Odor',
  'Taste',
  'Boiling Point',
  'Melting Point',
  'Flash Point',
  'Solubility',
  'Density',
  'Vapor Pressure',
  'LogP',
  'Stability/Shelf Life',
  'Decomposition',
  'Dissociation Constants',
  'Drug Indication',
  'Mechanism of Action',
  'Hazards Summary',
  'Biological Test Results',
  'BioAssay Results',
];

export interface ViewInput {
  cid: number;
  title: string | undefined;
  props: Props;
  computed: ReadonlySet<string>;
  synonyms: string[];
  assays: { aid: number; name: string; outcome: string }[];
  annotation: string | undefined;
  rdkitVersion: string;
}

const str = (s: string) => ({ StringWithMarkup: [{ String: s }] });

/** Computed property sections, in PubChem's order: heading, property, value kind, unit. */
const COMPUTED: [string, string, 'string' | 'number', string?][] = [
  ['Molecular Weight', 'MolecularWeight', 'string', 'g/mol'],
  ['XLogP3', 'XLogP', 'number'],
  ['Hydrogen Bond Donor Count', 'HBondDonorCount', 'number'],
  ['Hydrogen Bond Acceptor Count', 'HBondAcceptorCount', 'number'],
  ['Rotatable Bond Count', 'RotatableBondCount', 'number'],
  ['Exact Mass', 'ExactMass', 'string', 'Da'],
  ['Monoisotopic Mass', 'MonoisotopicMass', 'string', 'Da'],
  ['Topological Polar Surface Area', 'TPSA', 'number', 'Å²'],
  ['Heavy Atom Count', 'HeavyAtomCount', 'number'],
  ['Formal Charge', 'Charge', 'number'],
  ['Complexity', 'Complexity', 'number'],
  ['Isotope Atom Count', 'IsotopeAtomCount', 'number'],
  ['Defined Atom Stereocenter Count', 'DefinedAtomStereoCount', 'number'],
  ['Undefined Atom Stereocenter Count', 'UndefinedAtomStereoCount', 'number'],
  ['Defined Bond Stereocenter Count', 'DefinedBondStereoCount', 'number'],
  ['Undefined Bond Stereocenter Count', 'UndefinedBondStereoCount', 'number'],
  ['Covalently-Bonded Unit Count', 'CovalentUnitCount', 'number'],
];

function computedSections(v: ViewInput): Section[] {
  const ref = 1;
  const source = (prop: string) => [v.computed.has(prop) ? `Computed by RDKit ${v.rdkitVersion} (biomirror)` : 'From the PubChem bulk data'];
  const info = (prop: string, value: Record<string, unknown>): Info[] => [{ ReferenceNumber: ref, Reference: source(prop), Value: value }];
  const p = v.props;
  const out: Section[] = [
    {
      TOCHeading: 'Structures',
      Description: 'Structure depictions of this compound.',
      Section: [{ TOCHeading: '2D Structure', Description: 'The 2D structure of the compound, as loaded.', Information: [{ ReferenceNumber: ref, Value: { Boolean: [true] } }] }],
    },
  ];
  const descriptors: Section[] = [];
  for (const [heading, prop] of [
    ['IUPAC Name', 'IUPACName'],
    ['InChI', 'InChI'],
    ['InChIKey', 'InChIKey'],
    ['SMILES', 'SMILES'],
  ] as const) {
    if (p[prop] !== undefined) descriptors.push({ TOCHeading: heading, Description: `The ${heading} of this compound.`, Information: info(prop, str(String(p[prop]))) });
  }
  const names: Section[] = [];
  if (descriptors.length) names.push({ TOCHeading: 'Computed Descriptors', Description: 'Descriptors computed from the structure.', Section: descriptors });
  if (p.MolecularFormula !== undefined) {
    names.push({ TOCHeading: 'Molecular Formula', Description: 'Hill formula of the compound.', Information: info('MolecularFormula', str(String(p.MolecularFormula))) });
  }
  if (v.synonyms.length) {
    names.push({
      TOCHeading: 'Synonyms',
      Description: 'Other names of this compound.',
      Section: [
        {
          TOCHeading: 'Depositor-Supplied Synonyms',
          Description: 'Names supplied by data contributors.',
          Information: [{ ReferenceNumber: ref, Value: { StringWithMarkup: v.synonyms.map((s) => ({ String: s })) } }],
        },
      ],
    });
  }
  if (names.length) out.push({ TOCHeading: 'Names and Identifiers', Description: 'Names and identifiers of this compound.', Section: names });
  const props: Section[] = [];
  for (const [heading, prop, kind, unit] of COMPUTED) {
    const val = p[prop];
    if (val === undefined) continue;
    const value: Record<string, unknown> = kind === 'string' ? str(String(val)) : { Number: [Number(val)] };
    if (unit) value.Unit = unit;
    props.push({ TOCHeading: heading, Description: `${heading} of this compound.`, Information: info(prop, value) });
  }
  if (props.length) {
    out.push({
      TOCHeading: 'Chemical and Physical Properties',
      Description: 'Properties of this compound.',
      Section: [{ TOCHeading: 'Computed Properties', Description: 'Properties computed from the structure.', Section: props }],
    });
  }
  if (v.assays.length) {
    out.push({
      TOCHeading: 'Biological Test Results',
      Description: 'Results of bioassays that tested this compound.',
      Section: [
        {
          TOCHeading: 'BioAssay Results',
          Description: 'Assays and their outcome for this compound.',
          Information: [{ ReferenceNumber: ref, Value: { StringWithMarkup: v.assays.map((a) => ({ String: `AID ${a.aid}: ${a.name} (${a.outcome})` })) } }],
        },
      ],
    });
  }
  return out;
}

function renumber(sections: Section[], offset: number): void {
  for (const s of sections) {
    for (const i of s.Information ?? []) if (typeof i.ReferenceNumber === 'number') i.ReferenceNumber += offset;
    if (s.Section) renumber(s.Section, offset);
  }
}

/**
 * Loaded sections go into the built ones heading by heading: a loaded section with Information is
 * PubChem's own and replaces the built one; one with only sub-sections is merged into it, so that
 * (say) loaded Experimental Properties sit beside the Computed Properties built here.
 */
function merge(into: Section[], loaded: Section[]): void {
  for (const s of loaded) {
    const at = into.findIndex((x) => x.TOCHeading === s.TOCHeading);
    const built = at >= 0 ? into[at] : undefined;
    if (!built) into.push(s);
    else if (s.Information?.length || !s.Section || !built.Section) into[at] = s;
    else {
      const inner = [...built.Section];
      merge(inner, s.Section);
      into[at] = { ...built, Section: inner };
    }
  }
}

export function buildView(v: ViewInput): ViewRecord {
  const sections = computedSections(v);
  const references: Record<string, unknown>[] = [
    {
      ReferenceNumber: 1,
      SourceName: 'PubChem',
      SourceID: 'PubChem',
      Description: 'Data from the PubChem bulk files loaded into this mirror, and values computed from them',
      URL: 'https://pubchem.ncbi.nlm.nih.gov',
    },
  ];
  let title = v.title;
  if (v.annotation) {
    const loaded = (JSON.parse(v.annotation) as { Record: ViewRecord }).Record;
    title ??= loaded.RecordTitle;
    const offset = references.length;
    renumber(loaded.Section ?? [], offset);
    for (const r of loaded.Reference ?? []) references.push({ ...r, ReferenceNumber: Number(r.ReferenceNumber) + offset });
    merge(sections, loaded.Section ?? []);
  }
  return { RecordType: 'CID', RecordNumber: v.cid, ...(title ? { RecordTitle: title } : {}), Section: sections, Reference: references };
}

function prune(sections: Section[], heading: string): Section[] {
  const out: Section[] = [];
  for (const s of sections) {
    if (s.TOCHeading.toLowerCase() === heading) {
      out.push(s);
      continue;
    }
    const inner = s.Section ? prune(s.Section, heading) : [];
    if (inner.length) {
      const { Information: _drop, ...rest } = s;
      out.push({ ...rest, Section: inner });
    }
  }
  return out;
}

function referencesUsed(sections: Section[], into: Set<number>): Set<number> {
  for (const s of sections) {
    for (const i of s.Information ?? []) into.add(i.ReferenceNumber);
    if (s.Section) referencesUsed(s.Section, into);
  }
  return into;
}

/** The record reduced to one heading (case-insensitive), or a PUG View fault. */
export function selectHeading(rec: ViewRecord, heading: string): ViewRecord {
  const h = heading.trim().toLowerCase();
  const sections = prune(rec.Section, h);
  if (!sections.length) {
    const known = new Set(KNOWN_HEADINGS.map((k) => k.toLowerCase()));
    const collect = (list: Section[]) => {
      for (const s of list) {
        known.add(s.TOCHeading.toLowerCase());
        if (s.Section) collect(s.Section);
      }
    };
    collect(rec.Section);
    if (!known.has(h)) throw pcErrors.viewBadRequest('Invalid heading', `"${heading}" is not a PUG View heading this mirror knows, e.g. ${KNOWN_HEADINGS.slice(0, 8).join('; ')}`);
    throw pcErrors.viewNotFound(`No data found for heading "${heading}" in CID ${rec.RecordNumber}`);
  }
  const used = referencesUsed(sections, new Set());
  return { ...rec, Section: sections, Reference: rec.Reference.filter((r) => used.has(Number(r.ReferenceNumber))) };
}
