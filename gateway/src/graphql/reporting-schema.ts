import { USER_ERRORS_FIELD } from './user-errors.js';
import { euGbsOperations } from '../catalogue/frameworks/eu-gbs.js';
import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';

/**
 * GraphQL of issue 37 (what issuers report: ICMA's impact table, the EU Green Bond Standard), kept apart from
 * framework-schema.ts and framework-mutations-schema.ts as extensions of their types so either side can be
 * rewritten without the other. Root fields and input types are written from catalogue/frameworks/'s declarations.
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


  extend type FrameworkRow {
    "Expected or measured; null when not given (and on an asset's attributed rows)."
    valueType: ValueType
    "Gross or net; null when not given."
    valueBasis: ValueBasis
    "The baseline, in the indicator's unit; null when not given."
    baseline: Decimal
    "The emission factor used; null when not given."
    emissionFactor: Decimal
    "The methodology's source; null when not given."
    methodologySource: String
    "The methodology's version; null when not given."
    methodologyVersion: String
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





  extend type Framework {
    "The issuer's LEI (ISO 17442); null when not given."
    issuerLei: String
    "The external reviewer; null when not given."
    externalReviewer: String
    "The competent authority that approved the prospectus; null when not given."
    approvingAuthority: String
    "The year's reporting period, first date (YYYY-MM-DD); null when not given."
    reportingPeriodStart: Date
    "The year's reporting period, last date (YYYY-MM-DD); null when not given."
    reportingPeriodEnd: Date
    "Where the year's unallocated proceeds are placed; null when not given."
    unallocatedProceedsPlacement: String
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

  "The EU taxonomy layer of a project's allocation in a year (setProjectTaxonomyLayer)."
  type TaxonomyLayer {
    "The EU taxonomy activity number, e.g. 4.1."
    activityCode: String!
    "The activity's name."
    activityName: String!
    "The environmental objective it contributes to substantially."
    objective: EnvironmentalObjective!
    "The technical screening criteria are met."
    technicalScreeningMet: Boolean!
    "The do no significant harm criteria are met."
    doNoSignificantHarmMet: Boolean!
    "The minimum safeguards are met."
    minimumSafeguardsMet: Boolean!
    "Fixed asset, CapEx, OpEx or financial asset."
    assetType: AssetType!
    "The allocation uses the flexibility of Article 5 of Regulation (EU) 2023/2631."
    article5: Boolean!
    "All three conditions met and not in the Article 5 pocket (Regulation (EU) 2020/852, Article 3)."
    aligned: Boolean!
  }

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

  extend type Project {
    "The EU taxonomy layer of the year's allocation; null when none is set."
    taxonomyLayer: TaxonomyLayer
    "Where it is, ISO 3166-1 alpha-2; null when not given."
    countryCode: String
    "Expected lifetime in years; null when not given."
    lifetimeYears: Int
    "New financing or refinancing; null when not given."
    financingType: FinancingType
    "Total project cost of the year, in its currency; null when not given."
    totalProjectCost: Decimal
    "The issuer's signed amount of the year, in its currency; null when not given."
    signedAmount: Decimal
    """
    The issuer's share of the project's financing in the year (signedAmount ÷ totalProjectCost, 0 to 1); null when
    either is unknown. buildFrameworkFromProjects counts this share of the project's indicator values.
    """
    financingShare: Decimal
  }
`;
