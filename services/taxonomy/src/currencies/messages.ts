import { joinAnd } from '../messages.js';

/** Message texts of currencies and FX rates (the spec shows none for §4.5). */
export const CURRENCY_MSG = {
  currencyAdded: (id: number) => `Currency added with id ${id}.`,
  currencyExists: (id: number) => `Currency already exists with id ${id}.`,
  currencyRemoved: 'Currency removed.',
  noSuchCurrency: (code: string) => `No such currency ${code}.`,
  currencyInUse: (code: string, users: string[]) => `Currency ${code} is still used by ${joinAnd(users)}; remove those first.`,
  currencyStillInUse: (code: string) => `Currency ${code} is still in use; remove what uses it first.`,
  fxRateAdded: (id: number) => `FX rate added with id ${id}.`,
  fxRateChanged: 'FX rate changed.',
  fxRateRemoved: 'FX rate removed.',
  noFxRate: (a: string, b: string, year: number) => `No FX rate between ${a} and ${b} for ${year}.`,
  sameCurrency: 'The numerator and denominator currencies must differ.',
  tooManyConversions: (max: number) => `At most ${max} conversions per call.`,
} as const;
