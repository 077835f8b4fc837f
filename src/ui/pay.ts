// DESIGN 16b, 18: pay as a person reads it, in English and French — one formatter for every
// capability that shows a job's salary (the board's pages, the alerts' emails), so they never
// disagree on cents or words. Below every capability: it imports none of them.

import { LOCALE, type Lang } from "./i18n";

const UNITS = {
  en: { 1: "a year", 2: "a month", 3: "a week", 4: "a day", 5: "an hour" },
  fr: { 1: "par année", 2: "par mois", 3: "par semaine", 4: "par jour", 5: "de l'heure" },
} as const;
const PLUS_COMMISSION: Record<Lang, string> = { en: "plus commission", fr: "plus commission" };

// Made once per isolate: building a formatter costs far more than using one.
const MONEY = { en: new Intl.NumberFormat(LOCALE.en, { style: "currency", currency: "CAD" }), fr: new Intl.NumberFormat(LOCALE.fr, { style: "currency", currency: "CAD" }) };

/** `$65,000.00` / `65 000,00 $`. */
function formatMoney(lang: Lang, amount: number): string {
  return MONEY[lang].format(amount);
}

/** A salary as a range with its unit: `$60,000.00 – $70,000.00 a year`. */
export function formatSalary(lang: Lang, salary: { amount: number; maxAmount: number | null; type: { id: number }; plusCommission: boolean }): string {
  const amount = (value: number) => formatMoney(lang, Number(JSON.stringify(value)));
  const range = salary.maxAmount === null ? amount(salary.amount) : `${amount(salary.amount)} – ${amount(salary.maxAmount)}`;
  const unit = UNITS[lang][salary.type.id as keyof (typeof UNITS)["en"]] ?? "";
  return `${range} ${unit}${salary.plusCommission ? `, ${PLUS_COMMISSION[lang]}` : ""}`.trim();
}
