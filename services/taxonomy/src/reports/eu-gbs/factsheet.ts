import { allocationSection, annexDocument, impactSection, textSection, type EuGbsBond, type EuGbsImpact } from './page.js';

/**
 * The European Green Bond factsheet (Annex I) and impact report (Annex III) of Regulation (EU) 2023/2631,
 * each one A4 HTML page. Same input, same bytes. Not yet served (issue 37).
 */
export interface EuGbsFactsheetInput extends EuGbsBond {
  /** Expected impacts (Annex I §5 "estimated"). */
  impacts: EuGbsImpact[];
  environmentalStrategy: string | null;
  reporting: string | null;
  otherInformation: string | null;
}

/** Annex I, sections 1–7: general, important, strategy, intended allocation, estimated impact, reporting, other. */
export function renderEuGbsFactsheet(input: EuGbsFactsheetInput, decimals = 2): string {
  return annexDocument('European Green Bond factsheet', input, decimals, (w) => [
    textSection('3. Environmental strategy and rationale', input.environmentalStrategy, w),
    allocationSection('4. Intended allocation of proceeds', input, w),
    impactSection('5. Environmental impact of proceeds (estimated)', input.impacts, w),
    textSection('6. Reporting', input.reporting, w),
    textSection('7. Other relevant information', input.otherInformation, w),
  ]);
}

export type EuGbsImpactReportInput = Omit<EuGbsFactsheetInput, 'reporting'>;

/**
 * Annex III, sections 1–6: general, important, strategy, allocation, environmental impact of bond proceeds
 * (per project and indicator, negative impacts as negative values, and the total per indicator), other.
 */
export function renderEuGbsImpactReport(input: EuGbsImpactReportInput, decimals = 2): string {
  return annexDocument('European Green Bond impact report', input, decimals, (w) => [
    textSection('3. Environmental strategy and rationale', input.environmentalStrategy, w),
    allocationSection('4. Allocation of proceeds', input, w),
    impactSection('5. Environmental impact of bond proceeds', input.impacts, w),
    textSection('6. Other relevant information', input.otherInformation, w),
  ]);
}
