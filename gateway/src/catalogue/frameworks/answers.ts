import { z } from 'zod';
import { frameworkRowAnswer, frameworkSummaryAnswer, projectRowAnswer, projectSummaryAnswer } from '../../generated/taxonomy.js';
import {
  answer,
  changed,
  exampleRowFields,
  exampleSummary,
  shared,
  type Answers,
} from '../answer-shapes.js';

/**
 * 200 answers of the framework and project operations (spec §4.6, §4.7): summaries and details in the
 * spec's shapes (§2.3, §2.4), changes `{message}`. The details are arrays holding the one framework or
 * project read, as the spec's "array of framework detail" says.
 */

export const frameworkSummary = frameworkSummaryAnswer;
export const frameworkRow = frameworkRowAnswer;
const frameworkDetail = shared(
  'FrameworkDetail',
  z.strictObject({ ...frameworkSummaryAnswer.shape, framework: z.array(frameworkRow) }),
);

const projectSummary = projectSummaryAnswer;
const projectRow = projectRowAnswer;
const projectDetail = shared('ProjectDetail', z.strictObject({ ...projectSummaryAnswer.shape, project: z.array(projectRow) }));

const project = {
  project_id: 14,
  project_identifier: 'SOLAR-PARK-7',
  project_name: 'Solar park Brandenburg',
  project_allocated_amount: 120_000_000,
  project_currency_code: 'EUR',
  framework_identifier: 'GF-2024',
  framework_name: 'Green bond framework 2024',
  project_visibility: 'private' as const,
};
const icmaImpactTable = shared(
  'IcmaImpactTable',
  z.strictObject({
    content: z.string().meta({ description: 'RFC 4180 CSV (CRLF line ends) of ICMA\'s summary impact table.' }),
    content_type: z.literal('text/csv; charset=utf-8'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: 'Lower-case hex SHA-256 of the content\'s UTF-8 bytes.' }),
  }),
);
const icmaExample =
  'Reporting year,Eligible category,Sub category,Currency,Allocated amount,Projects,Projects counted pro rata,Indicator,Unit,Value (100 % of projects),Value (issuer\'s share)\r\n' +
  '2024,Renewable energy,Solar power,EUR,50.00,2,1,Annual GHG emissions reduced/avoided,tCO2e/year,1200.00,450.00\r\n';
const euGbsDocument = shared(
  'EuGbsDocument',
  z.strictObject({
    content: z.string().meta({ description: 'A self-contained A4 HTML page: one of the EU Green Bond Standard\'s documents.' }),
    content_type: z.literal('text/html; charset=utf-8'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: 'Lower-case hex SHA-256 of the content\'s UTF-8 bytes.' }),
    url: z.string().meta({ description: 'A signed link to the same document as a page (its PDF: .pdf for .html), read as the caller\'s account without a key until it expires.' }),
  }),
);
/** The page's first bytes (the example is cut short; its hash is of what is shown). */
const euGbsExample = '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>European Green Bond allocation report: Green bond framework 2024</title>';
const icmaImpactWorkbook = shared(
  'IcmaImpactWorkbook',
  z.strictObject({
    content_base64: z.string().meta({ description: "Base64 of the XLSX workbook's bytes (ICMA's summary impact table: a portfolio-level sheet and a project-by-project sheet)." }),
    content_type: z.literal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: "Lower-case hex SHA-256 of the workbook's bytes (not of the base64)." }),
  }),
);

export const frameworkAnswers = {
  getFrameworks: answer(z.array(frameworkSummary), [exampleSummary]),
  getFrameworkDetails: answer(z.array(frameworkDetail), [
    { ...exampleSummary, framework: [{ ...exampleRowFields, framework_currency_code: 'EUR' }] },
  ]),
  addFramework: changed('Framework added with id 9.'),
  addYearSpecificsToFramework: changed('Year specifics for 2024 added to framework.'),
  addCategoryIndicatorToFramework: changed('Indicator 21 of sub category 12 added to framework.'),
  removeIndicatorFromFramework: changed('Indicator 21 of sub category 12 removed from framework.'),
  removeCategoryFromFramework: changed('Sub category 12 removed from framework.'),
  removeFrameworkYearSpecifics: changed('Year specifics for 2024 removed from framework.'),
  removeFramework: changed('Framework removed.'),

  getProjects: answer(z.array(projectSummary), [project]),
  getProjectDetails: answer(z.array(projectDetail), [{ ...project, project: [{ ...exampleRowFields, project_currency_code: 'EUR' }] }]),
  addProject: changed('Project added with id 14.'),
  addYearSpecificsToProject: changed('Year specifics for 2024 added to project.'),
  addCategoryIndicatorToProject: changed('Indicator 21 of sub category 12 added to project.'),
  buildFrameworkFromProjects: changed('Framework built from 2 projects: 4 rows.'),
  removeIndicatorFromProject: changed('Indicator 21 of sub category 12 removed from project.'),
  removeCategoryFromProject: changed('Sub category 12 removed from project.'),
  removeYearSpecificsFromProject: changed('Year specifics for 2024 removed from project.'),
  removeProject: changed('Project removed.'),

  setUnitSigned: changed('Unit 2 is signed: its values may be negative.'),
  getIcmaImpactTable: answer(icmaImpactTable, {
    content: icmaExample,
    content_type: 'text/csv; charset=utf-8',
    sha256: 'f888dafe39a4afba27296c4de3f788a059edd10a8ab5a854159bba62ccc4c449',
  }),
  setProjectTaxonomyLayer: changed('Taxonomy layer for 2024 set on project.'),
  removeProjectTaxonomyLayer: changed('Taxonomy layer for 2024 removed from project.'),
  getEuGbsDocument: answer(euGbsDocument, {
    content: euGbsExample,
    content_type: 'text/html; charset=utf-8',
    sha256: 'dc51a7b7568bc27f9ffc0a123947952f9c62b5273da6a2d3bfedd1e0631f5cba',
    url: 'https://impact.example.com/reports/frameworks/GBF-2024/2024/allocation_report.html?acct=3f1c2b7e-9a41-4d2c-8e5b-2a6f0c9d1e47&exp=1767225600&sig=Q1x0v2b3n4m5k6j7h8g9f0d1s2a3p4o5i6u7y8t9r0e',
  }),
  getIcmaImpactWorkbook: answer(icmaImpactWorkbook, {
    content_base64: 'UEsDBBQAAAAAAAAAIQA…',
    content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    sha256: '3c1d0e6f5b0d2a8e4f9c7b6a5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e',
  }),
} satisfies Answers;
