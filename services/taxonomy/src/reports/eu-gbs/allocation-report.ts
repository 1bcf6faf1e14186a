import { allocationSection, annexDocument, type EuGbsBond } from './page.js';

export type { EuGbsAllocation, EuGbsBond } from './page.js';
export type EuGbsAllocationReportInput = EuGbsBond;

/**
 * The European Green Bond allocation report (Regulation (EU) 2023/2631, Annex II) as one A4 HTML page:
 * section 1 general information, section 2 important information (the designation statement and, when used,
 * the Article 5 statement), sections 3–4 allocation of proceeds (page.ts). Same input, same bytes, to be
 * hashed and anchored like the framework documents. Not yet served (issue 37).
 */
export function renderEuGbsAllocationReport(bond: EuGbsBond, decimals = 2): string {
  return annexDocument('European Green Bond allocation report', bond, decimals, (w) => [allocationSection('3–4. Allocation of proceeds', bond, w)]);
}
