import type { FieldError } from "../http/problem";
import type { NewPlace } from "../locations/resolve";
import type { ReferenceData } from "../reference/repository";
import type { Location } from "../reference/schemas";
import { DEFAULT_OPEN_SECONDS } from "./dates";
import { canadianExperienceMask, mentionsCanadianExperience, type CanadianExperienceField } from "../postingrules";
import { normalizeQuestion, type Question } from "../screening";
import { TRANSLATION_LANGUAGES, type JobInput, type JobStatus } from "./schemas";

// Pure domain rules: no I/O. The handler resolves locations and cleans the description,
// then merges the request into the job and validates the result as a whole.

export interface SalaryState {
  amount: number | null;
  maxAmount: number | null;
  typeId: number | null;
  plusCommission: boolean;
}

/** DESIGN 19: the job's French version; a member is null while a merge has not given it. */
export interface TranslationState {
  title: string | null;
  description: string | null;
}

export type JobPlace = { kind: "known"; location: Location } | { kind: "create"; place: NewPlace };

/** A job as stored (amounts in ten-thousandths, dates in Unix seconds). */
export interface JobState {
  referenceId: string | null;
  title: string | null;
  publishDate: number;
  closeDate: number;
  confidential: boolean;
  autoRefresh: boolean;
  status: JobStatus;
  positionTypeId: number | null;
  salary: SalaryState | null;
  description: string | null;
  routingTypeId: number | null;
  applicationEmail: string | null;
  applicationUrl: string | null;
  categoryIds: number[];
  places: JobPlace[];
  aiUsedInSelection: boolean | null;
  existingVacancy: boolean | null;
  translations: { fr: TranslationState } | null;
  /** Which texts ask for Canadian experience (src/postingrules/facts.ts), kept with the texts it reads. */
  canadianExperience: number;
  questions: Question[];
  /** Digests of the raw inputs `description` and `translations.fr.description` were cleaned from (src/description/digest.ts). */
  descriptionDigest: string | null;
  frenchDescriptionDigest: string | null;
}

export const ROUTING_EMAIL = 1;
export const ROUTING_URL = 2;

/** The request's descriptions as cleaned (or found cleaned already) and the digests of what it sent; undefined: not sent. */
export interface SettledTexts {
  description?: string | null;
  descriptionDigest?: string | null;
  frenchDescription?: string | null;
  frenchDescriptionDigest?: string | null;
}

export interface Merged {
  job: JobState;
  /** Set when the request asks for a move that is not allowed (409, not 400). */
  conflict?: string;
}

/**
 * The request applied to the current job (null when creating), following JSON Merge Patch:
 * members not sent keep their value, null clears, `salary` merges member by member, arrays
 * replace. `places` is the already resolved `locations` of the request, if it sent any.
 */
export function mergeJob(
  current: JobState | null,
  patch: JobInput,
  options: { now: number; places?: JobPlace[] } & SettledTexts,
): Merged {
  const { now } = options;
  let conflict: string | undefined;
  const base: JobState = current ?? {
    referenceId: null,
    title: null,
    publishDate: now,
    closeDate: now + DEFAULT_OPEN_SECONDS,
    confidential: false,
    autoRefresh: false,
    status: "draft",
    positionTypeId: null,
    salary: null,
    description: null,
    routingTypeId: null,
    applicationEmail: null,
    applicationUrl: null,
    categoryIds: [],
    places: [],
    aiUsedInSelection: null,
    existingVacancy: null,
    translations: null,
    canadianExperience: 0,
    questions: [],
    descriptionDigest: null,
    frenchDescriptionDigest: null,
  };

  let status = base.status;
  let publishDate = base.publishDate;
  let republished = false;
  if (patch.status !== undefined && patch.status !== base.status) {
    if (current && patch.status === "draft") {
      const hint = current.status === "active" ? " Archive it to take it down." : "";
      conflict = `A job that is ${current.status} cannot go back to draft.${hint}`;
    } else {
      status = patch.status;
      // Entering active from another status is a (re-)publish.
      if (current && status === "active") {
        publishDate = now;
        republished = true;
      }
    }
  }

  let closeDate = base.closeDate;
  if (patch.closeDate !== undefined) {
    closeDate = patch.closeDate ?? publishDate + DEFAULT_OPEN_SECONDS;
  } else if (republished && base.closeDate <= now) {
    closeDate = publishDate + DEFAULT_OPEN_SECONDS;
  }

  let salary = base.salary;
  if (patch.salary === null) {
    salary = null;
  } else if (patch.salary !== undefined) {
    const from = base.salary ?? { amount: null, maxAmount: null, typeId: null, plusCommission: false };
    const sent = patch.salary;
    salary = {
      amount: sent.amount !== undefined ? sent.amount : from.amount,
      maxAmount: sent.maxAmount !== undefined ? sent.maxAmount : from.maxAmount,
      typeId: sent.type !== undefined ? (sent.type?.id ?? null) : from.typeId,
      plusCommission: sent.plusCommission !== undefined ? (sent.plusCommission ?? false) : from.plusCommission,
    };
  }

  const routingTypeId = patch.applicantRoutingType !== undefined ? (patch.applicantRoutingType?.id ?? null) : base.routingTypeId;
  const email = patch.applicationEmail !== undefined ? emptyToNull(patch.applicationEmail) : base.applicationEmail;
  const url = patch.applicationUrl !== undefined ? emptyToNull(patch.applicationUrl) : base.applicationUrl;

  const title = patch.title !== undefined ? patch.title : base.title;
  const description = options.description !== undefined ? options.description : base.description;
  const translations = mergeTranslations(base.translations, patch.translations, options.frenchDescription);
  // Read again only when a text it reads changed: a PUT of other members never rescans a long description.
  const textsChanged = !current || title !== base.title || description !== base.description || translations !== base.translations;
  const job: JobState = {
    referenceId: patch.referenceId !== undefined ? patch.referenceId : base.referenceId,
    title,
    publishDate,
    closeDate,
    confidential: patch.confidential !== undefined ? (patch.confidential ?? false) : base.confidential,
    autoRefresh: patch.autoRefresh !== undefined ? (patch.autoRefresh ?? false) : base.autoRefresh,
    status,
    positionTypeId: patch.positionType !== undefined ? (patch.positionType?.id ?? null) : base.positionTypeId,
    salary,
    description,
    routingTypeId,
    // DESIGN 4: the address the routing type does not use is ignored and stored as null.
    applicationEmail: routingTypeId === ROUTING_EMAIL ? email : null,
    applicationUrl: routingTypeId === ROUTING_URL ? url : null,
    categoryIds: patch.categories !== undefined ? (patch.categories ?? []).map((c) => c.id) : base.categoryIds,
    places: options.places ?? base.places,
    aiUsedInSelection: patch.aiUsedInSelection !== undefined ? patch.aiUsedInSelection : base.aiUsedInSelection,
    existingVacancy: patch.existingVacancy !== undefined ? patch.existingVacancy : base.existingVacancy,
    translations,
    canadianExperience: textsChanged ? canadianExperienceMask(canadianExperienceIn(title, description, translations)) : base.canadianExperience,
    questions: patch.questions !== undefined ? (patch.questions ?? []).map(normalizeQuestion) : base.questions,
    descriptionDigest: options.description !== undefined ? (options.descriptionDigest ?? null) : base.descriptionDigest,
    frenchDescriptionDigest:
      translations === null ? null : options.frenchDescription !== undefined ? (options.frenchDescriptionDigest ?? null) : base.frenchDescriptionDigest,
  };
  return { job, conflict };
}

/** JSON Merge Patch of `translations`: null clears, `fr` merges member by member (its description already cleaned). */
function mergeTranslations(
  current: JobState["translations"],
  patch: JobInput["translations"],
  frenchDescription: string | null | undefined,
): JobState["translations"] {
  if (patch === undefined) return current;
  if (patch === null || patch.fr === null) return null;
  if (patch.fr === undefined) return current;
  const from = current?.fr ?? { title: null, description: null };
  const fr = {
    title: patch.fr.title !== undefined ? patch.fr.title : from.title,
    description: frenchDescription !== undefined ? frenchDescription : from.description,
  };
  return fr.title === null && fr.description === null ? null : { fr };
}

function canadianExperienceIn(title: string | null, description: string | null, translations: JobState["translations"]): CanadianExperienceField[] {
  const fields: CanadianExperienceField[] = [];
  if (mentionsCanadianExperience(title)) fields.push("title");
  if (mentionsCanadianExperience(description)) fields.push("description");
  if (mentionsCanadianExperience(translations?.fr.title) || mentionsCanadianExperience(translations?.fr.description)) fields.push("translations.fr");
  return fields;
}

/** DESIGN 19a: `translations` names languages; one it has not is that member's 400. */
export function unknownTranslationErrors(translations: unknown): FieldError[] {
  if (translations === null || typeof translations !== "object" || Array.isArray(translations)) return [];
  return Object.keys(translations)
    .filter((key) => !(TRANSLATION_LANGUAGES as readonly string[]).includes(key))
    .map((key) => ({ field: `translations.${key}`, message: `translations has no language "${key}"; the only one is "fr".` }));
}

function emptyToNull(text: string | null): string | null {
  return text === "" ? null : text;
}

const placeKeyOf = (place: JobPlace) =>
  place.kind === "known" ? `id:${place.location.id}` : `new:${place.place.nameKey}|${place.place.provinceCode}`;

/** The same place or category twice counts once; the first mention keeps its position. */
export function distinctPlaces<P extends JobPlace>(places: P[]): P[] {
  const seen = new Set<string>();
  return places.filter((place) => !seen.has(placeKeyOf(place)) && seen.add(placeKeyOf(place)));
}

export function distinctIds(ids: number[]): number[] {
  return [...new Set(ids)];
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(\.[^\s@<>()[\]\\,;:".]+)+$/u;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function isEmail(text: string): boolean {
  return !CONTROL.test(text) && EMAIL.test(text);
}

/**
 * An absolute address written with its `http://` or `https://` prefix (spec 4.2): the URL
 * parser alone would also take `http:example.com` or `https:\\host` and mend them.
 */
export function isHttpUrl(text: string): boolean {
  if (/\s/.test(text) || CONTROL.test(text) || !/^https?:\/\/[^/\\]/i.test(text) || text.includes("\\")) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}


/** Every rule the merged job breaks (DESIGN 4), each with the member's path in the body. */
export function validateJob(job: JobState, reference: ReferenceData): FieldError[] {
  const errors: FieldError[] = [];
  const error = (field: string, message: string) => errors.push({ field, message });
  const known = (list: { id: number }[], id: number) => list.some((item) => item.id === id);

  const places = distinctPlaces(job.places).length;
  if (places < 1) error("locations", "At least 1 location is required.");
  if (places > 3) error("locations", "Up to 3 locations are allowed.");

  const categories = distinctIds(job.categoryIds).length;
  if (categories < 1) error("categories", "At least 1 category is required.");
  if (categories > 3) error("categories", "Up to 3 categories are allowed.");
  job.categoryIds.forEach((id, i) => {
    if (!known(reference.categories, id)) error(`categories[${i}].id`, `Category ${id} does not exist; see /api/v1.1/jobcategories.`);
  });

  if (job.positionTypeId !== null && !known(reference.positionTypes, job.positionTypeId)) {
    error("positionType.id", `Position type ${job.positionTypeId} does not exist; see /api/v1.1/positiontypes.`);
  }

  const salary = job.salary;
  if (salary) {
    if (salary.amount === null) error("salary.amount", "salary.amount is required when a salary is given.");
    if (salary.typeId === null) {
      if (salary.amount !== null) error("salary.type.id", "salary.type.id is required when salary.amount is given.");
    } else if (!known(reference.salaryTypes, salary.typeId)) {
      error("salary.type.id", `Salary type ${salary.typeId} does not exist; use 1 to 5 (see /api/v1.1/salarytypes).`);
    }
    if (salary.amount !== null && salary.maxAmount !== null && salary.maxAmount < salary.amount) {
      error("salary.maxAmount", "salary.maxAmount must be at least salary.amount.");
    }
  }

  if (job.routingTypeId !== null && !known(reference.applicantRoutingTypes, job.routingTypeId)) {
    error("applicantRoutingType.id", `Applicant routing type ${job.routingTypeId} does not exist; use 1 (Email) or 2 (URL).`);
  }
  if (job.routingTypeId === ROUTING_EMAIL) {
    const email = job.applicationEmail;
    // Its length is the request schema's (src/jobs/schemas.ts), checked whatever the routing type.
    if (email === null) error("applicationEmail", "applicationEmail is required when applicantRoutingType.id is 1.");
    else if (!isEmail(email)) error("applicationEmail", "applicationEmail must be a valid email address.");
  }
  if (job.routingTypeId === ROUTING_URL) {
    const url = job.applicationUrl;
    if (url === null) error("applicationUrl", "applicationUrl is required when applicantRoutingType.id is 2.");
    else if (!isHttpUrl(url)) error("applicationUrl", "applicationUrl must be an absolute http:// or https:// address.");
  }

  const fr = job.translations?.fr;
  if (fr) {
    if (fr.title === null) error("translations.fr.title", "translations.fr.title is required with a French version.");
    if (fr.description === null) error("translations.fr.description", "translations.fr.description is required with a French version.");
  }

  if (job.closeDate <= job.publishDate) error("closeDate", "closeDate must be after publishDate.");
  return errors;
}

/** Stored columns that differ, so a PUT writes only those (concurrent PUTs of other members survive). */
export type ColumnChanges = Partial<Omit<JobState, "salary" | "categoryIds" | "places" | "translations" | "questions"> & {
  translations: string | null;
  questions: string | null;
  salaryAmount: number | null;
  salaryMaxAmount: number | null;
  salaryTypeId: number | null;
  salaryPlusCommission: boolean | null;
}>;

export function flattenSalary(salary: SalaryState | null) {
  return {
    salaryAmount: salary?.amount ?? null,
    salaryMaxAmount: salary?.maxAmount ?? null,
    salaryTypeId: salary?.typeId ?? null,
    salaryPlusCommission: salary ? salary.plusCommission : null,
  };
}

/** How `questions` is stored: JSON text, or null for none. */
export const questionsJson = (questions: Question[]) => (questions.length ? JSON.stringify(questions) : null);

/** How `translations` is stored: JSON text, or null. */
export const translationsJson = (translations: JobState["translations"]) => (translations ? JSON.stringify(translations) : null);

export function changedColumns(before: JobState, after: JobState): ColumnChanges {
  const changes: Record<string, unknown> = {};
  const scalar = [
    "referenceId",
    "title",
    "publishDate",
    "closeDate",
    "confidential",
    "autoRefresh",
    "status",
    "positionTypeId",
    "description",
    "routingTypeId",
    "applicationEmail",
    "applicationUrl",
    "aiUsedInSelection",
    "existingVacancy",
    "canadianExperience",
  ] as const;
  for (const key of scalar) if (before[key] !== after[key]) changes[key] = after[key];
  const translations = translationsJson(after.translations);
  if (translationsJson(before.translations) !== translations) changes.translations = translations;
  // A digest goes with its text: written when the text changes, never a change of its own.
  if ("description" in changes) changes.descriptionDigest = after.descriptionDigest;
  if ("translations" in changes) changes.frenchDescriptionDigest = after.frenchDescriptionDigest;
  const questions = questionsJson(after.questions);
  if (questionsJson(before.questions) !== questions) changes.questions = questions;
  const salaryBefore = flattenSalary(before.salary);
  const salaryAfter = flattenSalary(after.salary);
  for (const key of Object.keys(salaryAfter) as (keyof typeof salaryAfter)[]) {
    if (salaryBefore[key] !== salaryAfter[key]) changes[key] = salaryAfter[key];
  }
  return changes as ColumnChanges;
}

const placeKeys = (places: JobPlace[]) => distinctPlaces(places).map(placeKeyOf).join(",");

/** What a merged job changes against the stored one: columns, and whether each list changed. */
export function changesOf(before: JobState, after: JobState) {
  const columns = changedColumns(before, after);
  const placesChanged = placeKeys(before.places) !== placeKeys(after.places);
  const categoriesChanged = distinctIds(before.categoryIds).join(",") !== distinctIds(after.categoryIds).join(",");
  return { columns, placesChanged, categoriesChanged, any: Object.keys(columns).length > 0 || placesChanged || categoriesChanged };
}

/** True when `field` is `other`, inside it, or contains it (`salary` and `salary.amount`). */
function overlaps(field: string, other: string): boolean {
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return within(field, other) || within(other, field);
}

/**
 * One list of every broken rule: a member whose value had the wrong type is reported once,
 * for its type, not again by a rule that missed it (`salary.amount` "must be a number", not
 * also "is required").
 */
export function mergeErrors(typeErrors: FieldError[], ruleErrors: FieldError[]): FieldError[] {
  return [...typeErrors, ...ruleErrors.filter((rule) => !typeErrors.some((type) => overlaps(rule.field, type.field)))];
}
