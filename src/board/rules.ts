import type { Job } from "../jobs/schemas";
import { provinceCodeOf } from "../locations/provinces";
import { yearly } from "../postingrules";

// Pure rules of the public board (DESIGN 14): the summary, the schema.org JobPosting and the
// cursor. No I/O.

const NAMED_REFERENCES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const BLOCKS = /<\/?(p|div|ul|ol|li|br)\b[^>]*>/gi;

/** The description's text: references decoded, blocks and `<br>` as one space, whitespace collapsed. */
export function textOf(html: string): string {
  return html
    .replace(BLOCKS, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (ref, name: string) => {
      if (name[0] === "#") {
        const code = name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ref;
      }
      return NAMED_REFERENCES[name] ?? ref;
    })
    .replace(/\s+/g, " ")
    .trim();
}

export const SUMMARY_LIMIT = 200;

/** At most 200 characters: longer text is cut at a word end within 199 characters, plus `…`. */
export function summaryOf(html: string | null): string {
  const text = html ? textOf(html) : "";
  const chars = [...text];
  if (chars.length <= SUMMARY_LIMIT) return text;
  const head = chars.slice(0, SUMMARY_LIMIT - 1).join("");
  const cut = chars[SUMMARY_LIMIT - 1] === " " ? head : head.replace(/\s+\S*$/, "");
  return `${(cut || head).trimEnd()}…`;
}

const EMPLOYMENT_TYPES: Record<number, string> = { 1: "FULL_TIME", 2: "PART_TIME", 3: "CONTRACTOR", 4: "TEMPORARY", 5: "VOLUNTEER" };
const SALARY_UNITS: Record<number, string> = { 1: "YEAR", 2: "MONTH", 3: "WEEK", 4: "DAY", 5: "HOUR" };

/** A Job's amount is a raw JSON number literal (`65000.0000`): its value as a number. */
const amountOf = (amount: unknown) => Number(JSON.stringify(amount));

/** schema.org JobPosting, as DESIGN 14 maps it. */
export function jobPostingLd(job: Job, employerName: string | null) {
  const salary = job.salary;
  return {
    "@context": "https://schema.org",
    "@type": "JobPosting",
    title: job.title,
    description: job.description ?? "",
    datePosted: job.publishDate,
    validThrough: job.closeDate,
    ...(job.positionType ? { employmentType: EMPLOYMENT_TYPES[job.positionType.id] } : {}),
    hiringOrganization: { "@type": "Organization", name: employerName ?? "Confidential" },
    jobLocation: job.locations.map((location) => ({
      "@type": "Place",
      address: {
        "@type": "PostalAddress",
        addressLocality: location.type === "Province" ? undefined : location.name,
        addressRegion: provinceCodeOf(location),
        addressCountry: "CA",
      },
    })),
    ...(salary
      ? {
          baseSalary: {
            "@type": "MonetaryAmount",
            currency: "CAD",
            value: {
              "@type": "QuantitativeValue",
              minValue: amountOf(salary.amount),
              ...(salary.maxAmount !== null ? { maxValue: amountOf(salary.maxAmount) } : {}),
              unitText: SALARY_UNITS[salary.type.id],
            },
          },
        }
      : {}),
    directApply: job.applicantRoutingType?.id === 1,
  };
}

/**
 * DESIGN 17: the board's order. A job's `seq` is its publishDate (seconds) × 2^21 plus the order
 * in which the board took its (re)publications of that second, so seq descending is newest
 * publishDate first, the later of equal ones first, and seq grows at every (re)publication or
 * refresh. 2^21 per second keeps every seq up to the year 2106 a safe integer.
 */
export const SEQ_PER_SECOND = 2 ** 21;

/** The seqs a job published at `publishDate` may take: [first, end). */
export const seqSlotOf = (publishDate: number) => ({ first: publishDate * SEQ_PER_SECOND, end: (publishDate + 1) * SEQ_PER_SECOND });

/** An opaque cursor: the seq the page ended at. */
export function encodeCursor(seq: number): string {
  return btoa(`s${seq}`).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

export function decodeCursor(text: string): number | null {
  try {
    const match = /^s([1-9][0-9]{0,15})$/.exec(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
    const seq = match ? Number(match[1]) : NaN;
    return Number.isSafeInteger(seq) ? seq : null;
  } catch {
    return null;
  }
}

/** The top of a salary range (amounts in ten-thousandths, as stored) in CAD a year; null without a salary. */
export function yearlyTopOf(amount: number | null, maxAmount: number | null, salaryTypeId: number | null): number | null {
  const top = maxAmount ?? amount;
  return top === null || salaryTypeId === null ? null : yearly(top, salaryTypeId);
}

/** The mean Earth radius (IUGG), in km. */
const EARTH_RADIUS_KM = 6371.0088;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** The great-circle distance (haversine), in km. */
export function distanceKm(a: Coordinates, b: Coordinates): number {
  const h =
    Math.sin(radians(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(radians(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The same formula in SQL (D1 has SQLite's math functions), for the radius search's places. */
export const DISTANCE_SQL = (a: string, b: string) =>
  `2 * ${EARTH_RADIUS_KM} * asin(min(1, sqrt(pow(sin(radians(${b}.latitude - ${a}.latitude) / 2), 2) + cos(radians(${a}.latitude)) * cos(radians(${b}.latitude)) * pow(sin(radians(${b}.longitude - ${a}.longitude) / 2), 2))))`;

/** DESIGN 17a: one decimal, rounded half up (the epsilon keeps 12.35 from becoming 12.3 in binary). */
export const roundKm = (km: number) => Math.floor(km * 10 + 0.5 + 1e-9) / 10;

/** Words as search folds them: accents and case removed, split at anything not a letter or digit. */
const foldedWords = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The longest query word, and so the longest prefix a search token needs. */
export const MAX_WORD_LENGTH = 40;

/** The words of `q` as the index folds them; at most 8, each up to 40 characters. */
export function wordsOf(q: string | undefined): string[] {
  if (!q) return [];
  return foldedWords(q)
    .slice(0, 8)
    .map((word) => [...word].slice(0, MAX_WORD_LENGTH).join(""));
}

/**
 * The search tokens of a text (DESIGN 17: a query word matches a word or a word's prefix): every
 * prefix of every folded word, up to 40 characters, once each. A query word is then one exact
 * token of the index, which is read in order and stops at the page.
 */
export function searchTokensOf(text: string): string {
  const tokens = new Set<string>();
  for (const word of foldedWords(text)) {
    const chars = [...word].slice(0, MAX_WORD_LENGTH);
    for (let length = 1; length <= chars.length; length++) tokens.add(chars.slice(0, length).join(""));
  }
  return [...tokens].join(" ");
}

/** An FTS5 query: every word as a quoted token (so nothing in it is query syntax); all must match. */
export const ftsQuery = (words: string[]) => words.map((word) => `"${word.replaceAll('"', '""')}"`).join(" ");
