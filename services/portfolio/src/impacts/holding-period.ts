/**
 * τ of the impact formula: the part of reporting year Y during which a position is held. A holding
 * covers the days [start, start + days): position_days counts the start day itself, so a 365-day
 * holding from 1 January 2023 ends with 31 December 2023. Days are calendar days in UTC; a leap year
 * has 366 of them.
 */
const DAY_MS = 86_400_000;

export interface HoldingInYear {
  /** First day held (YYYY-MM-DD): the position's start date, or 1 January of Y when none was given. */
  start: string;
  /** Day after the last day held (YYYY-MM-DD). */
  endExclusive: string;
  /** Whether start came from the position (false: the 1 January default). */
  startGiven: boolean;
  positionDays: number;
  /** Days of [start, endExclusive) inside year Y. */
  holdingDaysInYear: number;
  /** 365, or 366 in a leap year. */
  daysInYear: number;
  /** holdingDaysInYear ÷ daysInYear, 0..1. */
  tau: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInYear(year: number): number {
  return isLeapYear(year) ? 366 : 365;
}

/** Days since 1970-01-01 of a valid YYYY-MM-DD date. */
export function epochDay(isoDate: string): number {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

export function isoDateOfEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function holdingInYear(input: { startDate: string | null | undefined; positionDays: number; year: number }): HoldingInYear {
  const { positionDays, year } = input;
  const yearStart = Date.UTC(year, 0, 1) / DAY_MS;
  const yearEnd = Date.UTC(year + 1, 0, 1) / DAY_MS;
  const startGiven = input.startDate !== null && input.startDate !== undefined;
  const start = startGiven ? epochDay(input.startDate!) : yearStart;
  const end = start + positionDays;
  const holdingDays = Math.max(0, Math.min(end, yearEnd) - Math.max(start, yearStart));
  const days = yearEnd - yearStart;
  return {
    start: isoDateOfEpochDay(start),
    endExclusive: isoDateOfEpochDay(end),
    startGiven,
    positionDays,
    holdingDaysInYear: holdingDays,
    daysInYear: days,
    tau: holdingDays / days,
  };
}
