import type { RenderIcmaImpactTableResponse, RenderIcmaImpactWorkbookResponse } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { int, oneOf } from '../fields.js';
import { itemChange } from '../taxonomy/taxonomy.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { frameworkIdentifier, languageCode, reportingYear } from './fields.js';

/**
 * Reports issuers publish (issue 37, docs/reporting-standards.md), rendered by TaxonomyService from the
 * framework's projects: ICMA's summary impact table as CSV, and as an XLSX workbook. Not spec operations. The service owns who may
 * render (the framework's owner), the bounds and the texts.
 */

const icmaInput = {
  identifier: frameworkIdentifier,
  year: reportingYear,
  level: oneOf('level', ['project', 'portfolio'], { doc: 'project (one line per project and indicator, the default) or portfolio (per sub category and indicator).', graphql: 'IcmaLevel' }).optional(),
  decimals: int('decimals', { doc: 'Decimals of amounts and values, 0 to 10; default 2.' }).optional(),
  languageCode,
};

/** The CSV as text with its type and SHA-256 (of its UTF-8 bytes), on both faces. */
function table(res: RenderIcmaImpactTableResponse) {
  return { content: Buffer.from(res.content).toString('utf8'), content_type: res.contentType, sha256: res.sha256 };
}

export const getIcmaImpactTable = declare({
  solution: ESG,
  operation: 'getIcmaImpactTable',
  summary: "ICMA's summary impact table of a framework's year, from the caller's projects built into it, as CSV (the framework's owner only).",
  input: icmaInput,
  service: 'taxonomy',
  method: 'renderIcmaImpactTable',
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year, level: i.level, decimals: i.decimals, languageCode: i.languageCode }),
  v1: table,
  graphql: {
    root: 'Query',
    field: 'icmaImpactTable',
    nested: false,
    returns: 'IcmaImpactTable!',
    render: async (call) => {
      const t = table(await call());
      return { content: t.content, contentType: t.content_type, sha256: t.sha256 };
    },
  },
});

/**
 * The workbook (both levels, a sheet each) as base64 of its bytes with its type and SHA-256 (of the bytes),
 * on both faces: JSON and GraphQL carry text, and a workbook is binary.
 */
function workbook(res: RenderIcmaImpactWorkbookResponse) {
  return { content_base64: Buffer.from(res.content).toString('base64'), content_type: res.contentType, sha256: res.sha256 };
}

export const getIcmaImpactWorkbook = declare({
  solution: ESG,
  operation: 'getIcmaImpactWorkbook',
  summary:
    "ICMA's summary impact table of a framework's year as an XLSX workbook laid out like ICMA's templates (a portfolio-level sheet and a " +
    'project-by-project sheet), from the caller\'s projects built into it (the framework\'s owner only).',
  input: { identifier: icmaInput.identifier, year: icmaInput.year, decimals: icmaInput.decimals, languageCode },
  service: 'taxonomy',
  method: 'renderIcmaImpactWorkbook',
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year, decimals: i.decimals, languageCode: i.languageCode }),
  v1: workbook,
  graphql: {
    root: 'Query',
    field: 'icmaImpactWorkbook',
    nested: false,
    returns: 'IcmaImpactWorkbook!',
    render: async (call) => {
      const w = workbook(await call());
      return { contentBase64: w.content_base64, contentType: w.content_type, sha256: w.sha256 };
    },
  },
});

/** Negative impacts: which units take values below 0. The service owns the rule and refuses an un-signing while negative values use the unit. */
export const setUnitSigned = declare({
  ...itemChange('setUnitSigned', 'unit', 'Marks a unit signed (its values may be negative, for negative impacts) or unsigned. Operators only.'),
  input: {
    id: int('unit_id', { doc: 'Unit id.', graphql: 'ID' }),
    year: reportingYear,
    sign: oneOf('unit_sign', ['signed', 'unsigned'], { doc: 'signed: values may be negative; unsigned: 0 or more (the default of every unit).', graphql: 'UnitSign' }),
  },
  request: (i) => ({ unitId: i.id, reportingYear: i.year, unitSigned: i.sign === 'signed' }),
});

export const reportOperations = [getIcmaImpactTable, getIcmaImpactWorkbook, setUnitSigned];
