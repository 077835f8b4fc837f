import { CANADIAN_EXPERIENCE_FIELDS, type PostingFacts } from "./facts";
import { yearly } from "./pay";

// DESIGN 19 and 19a: the posting rules of Canadian jurisdictions, as data. Adding a province is
// adding entries here (and their tests); nothing else changes. This is help with compliance,
// not legal advice: docs/posting-rules.md says so, and cites each law.

export type Jurisdiction = "BC" | "PE" | "ON" | "QC";

/** What one rule's own check found (applicability by date, employer and size is decided around it). */
export type Verdict =
  | { status: "met"; message: string }
  | { status: "notApplicable"; message: string }
  | { status: "broken"; message: string; field: string };

export interface PostingRule {
  /** Stable: integrations match on it. */
  id: string;
  jurisdiction: Jurisdiction;
  title: string;
  /** The law's citation. */
  law: string;
  /** The official text. */
  source: string;
  /** Applies to postings published on or after this day (UTC). */
  effective: string;
  /** Provincial employment standards do not bind federally regulated employers. */
  federalExempt: boolean;
  /** Applies only to employers with at least this many employees in the jurisdiction (unknown counts as more). */
  minimumEmployees?: number;
  check(job: PostingFacts): Verdict;
}

const BC_PAY_ACT = "https://www.bclaws.gov.bc.ca/civix/document/id/complete/statreg/23018";
const PE_ESA = "https://www.princeedwardisland.ca/en/legislation/employment-standards-act";
const ON_ESA = "https://www.ontario.ca/laws/statute/00e41";
const ON_REG = "https://www.ontario.ca/laws/regulation/r24476";
const QC_CHARTER = "https://www.legisquebec.gouv.qc.ca/en/document/cs/C-11";

/** O. Reg. 476/24: the widest range a posting may give, and the pay above which none is required. */
export const ONTARIO_MAX_RANGE_WIDTH = 50_000;
export const ONTARIO_PAY_EXEMPT_ABOVE = 200_000;

const money = (amount: number) => `${Math.round(amount).toLocaleString("en-US")} CAD`;

/** British Columbia and Prince Edward Island: the pay is given, a range with both ends. */
function payIsGiven(job: PostingFacts, province: string): Verdict {
  if (!job.salary) {
    return { status: "broken", field: "salary", message: `${province} requires the expected pay, or a pay range with both ends, in a public job posting; give salary.amount (and salary.maxAmount for a range).` };
  }
  return { status: "met", message: job.salary.maxAmount === null ? "The posting gives the pay." : "The posting gives a pay range with both ends." };
}

export const POSTING_RULES: readonly PostingRule[] = [
  {
    id: "bc.pay",
    jurisdiction: "BC",
    title: "Expected pay or pay range in every public job posting",
    law: "Pay Transparency Act, S.B.C. 2023, c. 18, s. 2",
    source: BC_PAY_ACT,
    effective: "2023-11-01",
    federalExempt: true,
    check: (job) => payIsGiven(job, "British Columbia"),
  },
  {
    id: "pe.pay",
    jurisdiction: "PE",
    title: "Expected pay or pay range in every public job posting",
    law: "Employment Standards Act, R.S.P.E.I. 1988, c. E-6.2, s. 5.9",
    source: PE_ESA,
    effective: "2022-06-01",
    federalExempt: true,
    check: (job) => payIsGiven(job, "Prince Edward Island"),
  },
  {
    id: "on.pay",
    jurisdiction: "ON",
    title: "Expected pay, or a range at most 50 000 CAD a year wide",
    law: "Employment Standards Act, 2000, S.O. 2000, c. 41, s. 8.2; O. Reg. 476/24",
    source: ON_REG,
    effective: "2026-01-01",
    federalExempt: true,
    minimumEmployees: 25,
    check: (job) => {
      const salary = job.salary;
      if (!salary) {
        return { status: "broken", field: "salary", message: "Ontario requires the expected pay, or a pay range, in a publicly advertised job posting; give salary.amount (and salary.maxAmount for a range)." };
      }
      const low = yearly(salary.amount, salary.typeId);
      const high = yearly(salary.maxAmount ?? salary.amount, salary.typeId);
      if (low === null || high === null) return { status: "met", message: "The posting gives the pay." };
      if (high > ONTARIO_PAY_EXEMPT_ABOVE) {
        return { status: "notApplicable", message: `Not required when the pay (or the top of its range) is above ${money(ONTARIO_PAY_EXEMPT_ABOVE)} a year.` };
      }
      if (high - low > ONTARIO_MAX_RANGE_WIDTH) {
        return {
          status: "broken",
          field: "salary",
          message: `Ontario allows a pay range at most ${money(ONTARIO_MAX_RANGE_WIDTH)} a year wide; this one is ${money(high - low)} a year wide (hourly × 2 080, daily × 260, weekly × 52, monthly × 12).`,
        };
      }
      return { status: "met", message: salary.maxAmount === null ? "The posting gives the pay." : "The posting gives a pay range at most 50 000 CAD a year wide." };
    },
  },
  {
    id: "on.ai",
    jurisdiction: "ON",
    title: "Whether artificial intelligence screens, assesses or selects applicants",
    law: "Employment Standards Act, 2000, S.O. 2000, c. 41, s. 8.3",
    source: ON_ESA,
    effective: "2026-01-01",
    federalExempt: true,
    minimumEmployees: 25,
    check: (job) =>
      job.aiUsedInSelection === null
        ? { status: "broken", field: "aiUsedInSelection", message: "Ontario requires a posting to say whether artificial intelligence is used to screen, assess or select applicants; set aiUsedInSelection to true or false." }
        : { status: "met", message: job.aiUsedInSelection ? "The posting says artificial intelligence is used in selection." : "The posting says artificial intelligence is not used in selection." },
  },
  {
    id: "on.vacancy",
    jurisdiction: "ON",
    title: "Whether the posting is for an existing vacancy",
    law: "Employment Standards Act, 2000, S.O. 2000, c. 41, s. 8.5",
    source: ON_ESA,
    effective: "2026-01-01",
    federalExempt: true,
    minimumEmployees: 25,
    check: (job) =>
      job.existingVacancy === null
        ? { status: "broken", field: "existingVacancy", message: "Ontario requires a posting to say whether it is for an existing vacancy; set existingVacancy to true or false." }
        : { status: "met", message: job.existingVacancy ? "The posting says it is for an existing vacancy." : "The posting says it is not for an existing vacancy." },
  },
  {
    id: "on.canadianExperience",
    jurisdiction: "ON",
    title: "No requirement of Canadian experience",
    law: "Employment Standards Act, 2000, S.O. 2000, c. 41, s. 8.4",
    source: ON_ESA,
    effective: "2026-01-01",
    federalExempt: true,
    minimumEmployees: 25,
    check: (job) => {
      const field = CANADIAN_EXPERIENCE_FIELDS.find((candidate) => job.canadianExperienceIn.includes(candidate));
      return field
        ? { status: "broken", field, message: `Ontario forbids requiring Canadian experience in a publicly advertised job posting; ${field} asks for it ("Canadian experience" or "expérience canadienne").` }
        : { status: "met", message: "The posting does not ask for Canadian experience." };
    },
  },
  {
    id: "qc.french",
    jurisdiction: "QC",
    title: "A French version published at the same time",
    law: "Charter of the French language, CQLR c. C-11, ss. 41–42",
    source: QC_CHARTER,
    effective: "2022-06-01",
    federalExempt: false,
    check: (job) =>
      job.hasFrench
        ? { status: "met", message: "The posting has a French version." }
        : { status: "broken", field: "translations.fr", message: "Quebec requires a job offer to be published in French at the same time; give translations.fr with its title and description." },
  },
];
