import { USER_ERRORS_FIELD } from './user-errors.js';
import { euGbsOperations } from '../catalogue/frameworks/eu-gbs.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { taxonomyLayerType } from './framework-objects.js';

/**
 * GraphQL of issue 37 (what issuers report: ICMA's impact table, the EU Green Bond Standard): its root fields
 * and input types written from catalogue/frameworks/'s declarations, its enums, answers and TaxonomyLayer
 * (framework-objects.ts, which declares the issue's fields of Framework, Project and FrameworkRow too).
 */
export const reportingTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', euGbsOperations)}
  }

  extend type Mutation {${rootFieldsSdl('Mutation', euGbsOperations)}
  }

${inputTypesSdl(euGbsOperations)}
  "Whether the issuer's money is new financing of a project or refinances it (ICMA's impact table)."
  enum FinancingType {
    "New financing."
    FINANCING
    "Refinancing of an existing project."
    REFINANCING
  }

  "Whether an indicator value is an ex ante estimate or an ex post measurement."
  enum ValueType {
    "An ex ante estimate."
    EXPECTED
    "An ex post measurement."
    MEASURED
  }

  "Whether an indicator value is gross, or net of its baseline."
  enum ValueBasis {
    "Gross: the value as produced or avoided, before any baseline."
    GROSS
    "Net of the baseline."
    NET
  }

  "Lines of ICMA's summary impact table."
  enum IcmaLevel {
    "One line per project and indicator (project by project)."
    PROJECT
    "One line per eligible sub category and indicator, in the framework currency (portfolio level)."
    PORTFOLIO
  }

  "ICMA's summary impact table as CSV: deterministic bytes, hashed so it can be anchored."
  type IcmaImpactTable {
    "RFC 4180 CSV, CRLF line ends (docs/reporting-standards.md lists its columns)."
    content: String!
    "text/csv; charset=utf-8"
    contentType: String!
    "Lower-case hex SHA-256 of the content's UTF-8 bytes."
    sha256: String!
  }

  "ICMA's summary impact table as an XLSX workbook (a portfolio-level sheet and a project-by-project sheet): deterministic bytes, hashed so it can be anchored."
  type IcmaImpactWorkbook {
    "Base64 of the workbook's bytes (docs/reporting-standards.md lists its sheets and columns)."
    contentBase64: String!
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    contentType: String!
    "Lower-case hex SHA-256 of the workbook's bytes (not of the base64)."
    sha256: String!
  }

  "Whether a unit's values may be negative (negative impacts)."
  enum UnitSign {
    "Values may be negative."
    SIGNED
    "Values are 0 or more (every unit's default)."
    UNSIGNED
  }

  "The environmental objectives of Regulation (EU) 2020/852, Article 9."
  enum EnvironmentalObjective {
    "Climate change mitigation."
    CLIMATE_CHANGE_MITIGATION
    "Climate change adaptation."
    CLIMATE_CHANGE_ADAPTATION
    "Sustainable use and protection of water and marine resources."
    WATER_AND_MARINE_RESOURCES
    "Transition to a circular economy."
    CIRCULAR_ECONOMY
    "Pollution prevention and control."
    POLLUTION_PREVENTION_AND_CONTROL
    "Protection and restoration of biodiversity and ecosystems."
    BIODIVERSITY_AND_ECOSYSTEMS
  }

  "What the proceeds are allocated to (Regulation (EU) 2023/2631, Article 4(1))."
  enum AssetType {
    "A fixed asset (not a financial asset)."
    FIXED_ASSET
    "Capital expenditure."
    CAPEX
    "Operating expenditure."
    OPEX
    "A financial asset (its proceeds in turn allocated to the other types)."
    FINANCIAL_ASSET
  }

${objectTypesSdl([taxonomyLayerType])}
  "Answer of writeEuGbsDocument: the queued job that anchors the document."
  type WriteEuGbsDocumentPayload {
    "What happened, in words."
    message: String!
    "The job's id."
    id: ID
    "The queued job (QUEUED at first; poll job(id) or subscribe to jobUpdated for its outcome)."
    job: Job${USER_ERRORS_FIELD}
  }

  "The EU Green Bond Standard's documents (Regulation (EU) 2023/2631)."
  enum EuGbsDocumentKind {
    "Annex I: the European Green Bond factsheet."
    FACTSHEET
    "Annex II: the allocation report."
    ALLOCATION_REPORT
    "Annex III: the impact report."
    IMPACT_REPORT
  }

  "One EU Green Bond Standard document as an A4 HTML page: deterministic bytes, hashed so it can be anchored."
  type EuGbsDocument {
    "A self-contained HTML page (docs/reporting-standards.md lists its sections)."
    content: String!
    "text/html; charset=utf-8"
    contentType: String!
    "Lower-case hex SHA-256 of the content's UTF-8 bytes."
    sha256: String!
    "A signed link to the same document as a page (its PDF: .pdf for .html), read as the caller's account without a key until it expires."
    url: String!
  }

`;
