import type { Job } from "../jobs/schemas";
import { PROVINCES } from "../locations/provinces";

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

const provinceOf = (description: string) => /,\s*([A-Z]{2})$/.exec(description)?.[1] ?? null;

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
        addressRegion: location.type === "Province" ? provinceCodeOfProvince(location.name) : provinceOf(location.description),
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

const provinceCodeOfProvince = (name: string) => PROVINCES.find((p) => p.name === name || p.frenchName === name)?.code ?? null;

/** An opaque cursor: where the page ended (publishDate, id). */
export function encodeCursor(cursor: { publishDate: number; id: number }): string {
  return btoa(`${cursor.publishDate}.${cursor.id}`).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

export function decodeCursor(text: string): { publishDate: number; id: number } | null {
  try {
    const [publishDate, id] = atob(text.replace(/-/g, "+").replace(/_/g, "/")).split(".").map(Number);
    return Number.isSafeInteger(publishDate) && Number.isSafeInteger(id) && id > 0 ? { publishDate, id } : null;
  } catch {
    return null;
  }
}

/** The words of `q` as the title index folds them; at most 8, each up to 40 characters. */
export function wordsOf(q: string | undefined): string[] {
  if (!q) return [];
  return q
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8)
    .map((word) => word.slice(0, 40));
}
