// DESIGN 17, 19: pay compared across periods is pay per year. Salary type ids are the seeded
// reference data (spec 3.4): 1 yearly, 2 monthly, 3 weekly, 4 daily, 5 hourly.
const PERIODS_PER_YEAR: Readonly<Record<number, number>> = { 1: 1, 2: 12, 3: 52, 4: 260, 5: 2080 };

/** An amount in ten-thousandths (as stored) of a salary type, in CAD a year; null for an unknown type. */
export function yearly(amount: number, salaryTypeId: number): number | null {
  const periods = PERIODS_PER_YEAR[salaryTypeId];
  return periods === undefined ? null : (amount / 10_000) * periods;
}
