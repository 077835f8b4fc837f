import type { JobStatus } from "../schemas";

/** One job as the full-job SELECT returns it: columns plus the joined names, lists as JSON. */
export interface JobRow {
  id: number;
  referenceId: string | null;
  employerId: number;
  employerName: string;
  title: string | null;
  publishDate: number;
  closeDate: number;
  confidential: number;
  autoRefresh: number;
  status: JobStatus;
  positionTypeId: number | null;
  positionTypeName: string | null;
  salaryAmount: number | null;
  salaryMaxAmount: number | null;
  salaryTypeId: number | null;
  salaryTypeName: string | null;
  salaryTypeUnit: string | null;
  salaryPlusCommission: number | null;
  description: string | null;
  routingTypeId: number | null;
  routingTypeName: string | null;
  applicationEmail: string | null;
  applicationUrl: string | null;
  /** JSON array of {id, name, description, type}, in the client's order. */
  locations: string;
  /** JSON array of {id, name}, in the client's order. */
  categories: string;
  revision: number;
  aiUsedInSelection: number | null;
  existingVacancy: number | null;
  /** JSON text of `{ fr: { title, description } }`, or null. */
  translations: string | null;
  /** Bit mask of the texts that ask for Canadian experience (src/postingrules/facts.ts). */
  canadianExperience: number;
  /** JSON text of the screening questions (DESIGN 20), or null for none. */
  questions: string | null;
  /** 1 for a job of an employer's test space (DESIGN 21). */
  test: number;
  /** Digests of the raw inputs the descriptions were cleaned from (src/description/digest.ts); null: unknown. */
  descriptionDigest: string | null;
  frenchDescriptionDigest: string | null;
  /** DESIGN 26a: an operator removed the job ("removed"; null otherwise), why (a MODERATION_REASONS) and when (s). */
  moderationStatus: "removed" | null;
  moderationReason: string | null;
  moderationAt: number | null;
  /** The owner's settings the posting rules read (DESIGN 19), and their revision (in the ETag). */
  employerOntarioEmployees: number | null;
  employerFederallyRegulated: number;
  employerPostingRules: "warn" | "enforce";
  employerRevision: number;
}

/** What the posting rules read of a job (a list item has no texts, only what they found). */
export type JobFactsRow = Pick<
  JobRow,
  "publishDate" | "locations" | "salaryAmount" | "salaryMaxAmount" | "salaryTypeId" | "aiUsedInSelection" | "existingVacancy" | "canadianExperience"
> &
  // A full row has the French version itself; a list item, only whether there is one.
  ({ translations: string | null } | { hasFrench: number });

/** The same, with the owner's settings the rules also read. */
export type JobRulesRow = JobFactsRow & Pick<JobRow, "employerOntarioEmployees" | "employerFederallyRegulated">;

export type JobHeaderRow = Pick<
  JobRow,
  "id" | "referenceId" | "employerId" | "employerName" | "title" | "publishDate" | "closeDate" | "confidential" | "status" | "locations"
> &
  JobRulesRow;

/**
 * What a JobRow kept before these members existed lacks (an event still being delivered, an
 * Idempotency-Key's replay, a board row projected before the deploy that added them): their
 * defaults, so every kept row renders.
 */
const ADDED_SINCE: Pick<
  JobRow,
  | "aiUsedInSelection"
  | "existingVacancy"
  | "translations"
  | "canadianExperience"
  | "questions"
  | "test"
  | "descriptionDigest"
  | "frenchDescriptionDigest"
  | "moderationStatus"
  | "moderationReason"
  | "moderationAt"
  | "employerOntarioEmployees"
  | "employerFederallyRegulated"
  | "employerPostingRules"
  | "employerRevision"
> = {
  aiUsedInSelection: null,
  existingVacancy: null,
  translations: null,
  test: 0,
  descriptionDigest: null,
  frenchDescriptionDigest: null,
  moderationStatus: null,
  moderationReason: null,
  moderationAt: null,
  canadianExperience: 0,
  questions: null,
  employerOntarioEmployees: null,
  employerFederallyRegulated: 0,
  employerPostingRules: "warn",
  employerRevision: 1,
};

export function withLaterMembers<R extends Partial<JobRow>>(row: R): R & typeof ADDED_SINCE {
  return { ...ADDED_SINCE, ...row };
}
