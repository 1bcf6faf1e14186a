/**
 * The framework row shapes the portfolio rows of v1/operations/ still take from here. The frameworks and
 * projects operations are declared in catalogue/frameworks/ (their shapes in catalogue/frameworks/rows.ts);
 * this goes when the portfolio rows import them from there.
 */
export { frameworkSummaryRow, rowHead, rowTail, visibilityText } from '../../catalogue/frameworks/rows.js';
