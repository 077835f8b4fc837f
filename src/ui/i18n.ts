// DESIGN 16b, 18: the languages of every page a person sees, and how dates are written in each.
// The words of a page stay with the capability that shows it (src/pages/i18n.ts, the alerts'
// ALERT_WORDS); what they all share — which languages there are, their locales, the date format —
// lives here, below every capability.

export type Lang = "en" | "fr";

/** The locale of each language (Canadian English and French). */
export const LOCALE: Record<Lang, string> = { en: "en-CA", fr: "fr-CA" };

// Made once per isolate: building a formatter costs far more than using one.
const DATES = { en: new Intl.DateTimeFormat(LOCALE.en, { dateStyle: "long", timeZone: "UTC" }), fr: new Intl.DateTimeFormat(LOCALE.fr, { dateStyle: "long", timeZone: "UTC" }) };

/** `November 23, 2026` / `23 novembre 2026`, in UTC as the API's dates are. */
export function formatDate(lang: Lang, iso: string): string {
  return DATES[lang].format(new Date(iso));
}

const DATE_TIMES = {
  en: new Intl.DateTimeFormat(LOCALE.en, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }),
  fr: new Intl.DateTimeFormat(LOCALE.fr, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }),
};

/** `November 23, 2026 at 3:04 p.m. UTC` / `23 novembre 2026 à 15 h 04 UTC`: when several things happen in a day. */
export function formatDateTime(lang: Lang, iso: string): string {
  return `${DATE_TIMES[lang].format(new Date(iso))} UTC`;
}
