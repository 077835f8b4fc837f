// Amounts are integer ten-thousandths (65000.1234 → 650001234): exact in a JS number up to
// 2^53, which MAX_AMOUNT keeps us far below.
export const MAX_AMOUNT = 100_000_000_000;
const SCALE_DIGITS = 4;

/**
 * A JSON number → ten-thousandths, exactly: works on the number's shortest decimal form
 * (what the client wrote, e.g. "0.1" not 0.1000000000000000055…) and rounds half to even
 * beyond four decimals.
 */
export function toTenThousandths(value: number): number {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(Math.abs(value)));
  if (!match) throw new RangeError(`Not a finite amount: ${value}`);
  const [, whole, fraction = "", exponent = "0"] = match;
  const digits = BigInt(whole + fraction);
  const shift = Number(exponent) - fraction.length + SCALE_DIGITS;
  let units: bigint;
  if (shift >= 0) {
    units = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    units = digits / divisor;
    const twice = (digits % divisor) * 2n;
    if (twice > divisor || (twice === divisor && units % 2n === 1n)) units += 1n;
  }
  return Number(value < 0 ? -units : units);
}

/** 650001234 → "65000.1234". */
export function formatAmount(units: number): string {
  const text = String(Math.abs(units)).padStart(SCALE_DIGITS + 1, "0");
  const sign = units < 0 ? "-" : "";
  return `${sign}${text.slice(0, -SCALE_DIGITS)}.${text.slice(-SCALE_DIGITS)}`;
}

declare global {
  interface JSON {
    rawJSON(text: string): unknown;
  }
}

/**
 * The amount as a JSON number literal with exactly four decimals (`65000.0000`):
 * `JSON.rawJSON` makes `JSON.stringify` (and so `c.json`) emit the text unquoted.
 */
export function amountJson(units: number): number {
  return JSON.rawJSON(formatAmount(units)) as number;
}
