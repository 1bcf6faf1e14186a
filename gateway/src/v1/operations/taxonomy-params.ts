/**
 * The parameter specs the rows of v1/operations/ not yet moved into the catalogue share (frameworks,
 * blockchain). The taxonomy's own operations are declared in catalogue/taxonomy/.
 */
export const taxonomyParams = {
  /** Spec §1, §8: every reporting_year is 4 digits. */
  reportingYear: { type: 'year', required: true },
  /** Reads: absent means "each item in its original language". One of getLanguages; the service checks. */
  languageCode: { type: 'identifier' },
  requiredLanguageCode: { type: 'identifier', required: true },
  id: { type: 'int', required: true, min: 1 },
  optionalId: { type: 'int', min: 1 },
  name: { type: 'string', required: true, maxLength: 255 },
  /** The `*_changed` names of the add operations: absent or "" means "not renaming". */
  newName: { type: 'string', maxLength: 255 },
  translation: { type: 'string', required: true, maxLength: 255 },
  /** Spec §8: 3 characters; sent upper case. */
  currencyCode: { type: 'currency', required: true },
  rate: { type: 'number', required: true },
} as const;

/** A read's optional language (framework reads in GraphQL). */
export const languageReadParams = { language_code: taxonomyParams.languageCode } as const;
