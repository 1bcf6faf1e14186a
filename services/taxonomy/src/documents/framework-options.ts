/** How a framework document is rendered (RenderFrameworkDocument's parameters, validated). */
export interface FrameworkRenderOptions {
  reportingYear: number;
  /** The requested language (canonical code), or null for every name in its original language. */
  languageCode: string | null;
  decimals: number;
  sdgGoalsIncluded: boolean;
  euObjectivesIncluded: boolean;
}

export const yesNo = (flag: boolean): 'yes' | 'no' => (flag ? 'yes' : 'no');
