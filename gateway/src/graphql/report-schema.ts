/**
 * SDL of the impact report links (catalogue/portfolio/reports.ts; not spec operations). Appended to
 * schema.ts's typeDefs.
 */
export const reportTypeDefs = /* GraphQL */ `
  extend type Query {
    "A signed link to the portfolio's impact report of the year as a page (totals, charts, each position's attribution and inputs); it opens in a browser without a key until it expires."
    portfolioImpactReportUrl("The portfolio's identifier." portfolioIdentifier: String!, "Reporting year, 4 digits." year: Int!): String!
    "A signed link to the investor's impact report of the year as a page, as portfolioImpactReportUrl."
    investorImpactReportUrl("The investor's identifier." investorIdentifier: String!, "Reporting year, 4 digits." year: Int!): String!
  }
`;
