import type { RenderIcmaImpactTableResponse } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { int, oneOf } from '../fields.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { frameworkIdentifier, languageCode, reportingYear } from './fields.js';

/**
 * Reports issuers publish (issue 37, docs/reporting-standards.md), rendered by TaxonomyService from the
 * framework's projects: ICMA's summary impact table as CSV. Not spec operations. The service owns who may
 * render (the framework's owner), the bounds and the texts.
 */

const icmaInput = {
  identifier: frameworkIdentifier,
  year: reportingYear,
  level: oneOf('level', ['project', 'portfolio'], { doc: 'project (one line per project and indicator, the default) or portfolio (per sub category and indicator).' }).optional(),
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
    render: async (call) => {
      const t = table(await call());
      return { content: t.content, contentType: t.content_type, sha256: t.sha256 };
    },
  },
});

export const reportOperations = [getIcmaImpactTable];
