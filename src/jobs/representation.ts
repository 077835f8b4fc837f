import type { ReferenceData } from "../reference/repository";
import type { Location } from "../reference/schemas";
import { formatDate } from "./dates";
import { amountJson } from "./money";
import type { JobHeaderRow, JobRow } from "./repository";
import { postingRulesOf } from "./posting-rules";
import type { JobState } from "./rules";
import { distinctIds, distinctPlaces, flattenSalary, questionsJson, translationsJson } from "./rules";
import type { Job, JobHeader, JobPreview, ModerationReason } from "./schemas";

const employerOf = (row: Pick<JobHeaderRow, "employerId" | "employerName">) => ({ id: row.employerId, name: row.employerName });
const locationsOf = (row: Pick<JobRow, "locations">): Location[] => JSON.parse(row.locations ?? "[]");


/** Spec 2.7: the list item. */
export function toJobHeader(row: JobHeaderRow): JobHeader {
  return {
    id: row.id,
    referenceId: row.referenceId,
    employer: employerOf(row),
    title: row.title,
    publishDate: formatDate(row.publishDate),
    locations: locationsOf(row),
    confidential: Boolean(row.confidential),
    status: row.status,
    postingRules: postingRulesOf(row),
  };
}

/** Spec 2.1, in its order: every member present, null where absent; money as four-decimal JSON numbers. */
export function toJob(row: JobRow): Job {
  return render(row) as Job;
}

/**
 * DESIGN 11, validate-only: the job as it would be stored. `id` is null when it would be
 * created, and so is a place's `id` when the place would be created with it.
 */
export function toJobPreview(row: PreviewRow): JobPreview {
  return render(row);
}

/** A JobRow not read from the database: the merged job with the names it would join. */
export type PreviewRow = Omit<JobRow, "id"> & { id: number | null };

/** What a preview shows of the job's owner and of the job's stored identity. */
export type PreviewStored = Pick<
  PreviewRow,
  | "id"
  | "employerId"
  | "employerName"
  | "revision"
  | "employerOntarioEmployees"
  | "employerFederallyRegulated"
  | "employerPostingRules"
  | "employerRevision"
> &
  Partial<Pick<PreviewRow, "moderationStatus" | "moderationReason" | "moderationAt">>;

export function previewRow(job: JobState, stored: PreviewStored, reference: ReferenceData): PreviewRow {
  const named = <T extends { id: number }>(list: T[], id: number | null) => (id === null ? undefined : list.find((item) => item.id === id));
  const positionType = named(reference.positionTypes, job.positionTypeId);
  const salaryType = named(reference.salaryTypes, job.salary?.typeId ?? null);
  const routing = named(reference.applicantRoutingTypes, job.routingTypeId);
  const salary = flattenSalary(job.salary);
  const places = distinctPlaces(job.places).map((place) =>
    place.kind === "known" ? place.location : { id: null, name: place.place.name, description: place.place.description, type: "City", latitude: null, longitude: null },
  );
  const categories = distinctIds(job.categoryIds).map((id) => ({ id, name: named(reference.categories, id)?.name ?? "" }));
  return {
    moderationStatus: null,
    moderationReason: null,
    moderationAt: null,
    ...stored,
    test: 0,
    referenceId: job.referenceId,
    title: job.title,
    publishDate: job.publishDate,
    closeDate: job.closeDate,
    confidential: Number(job.confidential),
    autoRefresh: Number(job.autoRefresh),
    status: job.status,
    positionTypeId: job.positionTypeId,
    positionTypeName: positionType?.name ?? null,
    salaryAmount: salary.salaryAmount,
    salaryMaxAmount: salary.salaryMaxAmount,
    salaryTypeId: salary.salaryTypeId,
    salaryTypeName: salaryType?.name ?? null,
    salaryTypeUnit: salaryType?.unit ?? null,
    salaryPlusCommission: salary.salaryPlusCommission === null ? null : Number(salary.salaryPlusCommission),
    description: job.description,
    routingTypeId: job.routingTypeId,
    routingTypeName: routing?.name ?? null,
    applicationEmail: job.applicationEmail,
    applicationUrl: job.applicationUrl,
    locations: JSON.stringify(places),
    categories: JSON.stringify(categories),
    aiUsedInSelection: job.aiUsedInSelection === null ? null : Number(job.aiUsedInSelection),
    existingVacancy: job.existingVacancy === null ? null : Number(job.existingVacancy),
    translations: translationsJson(job.translations),
    canadianExperience: job.canadianExperience,
    questions: questionsJson(job.questions),
    descriptionDigest: job.descriptionDigest,
    frenchDescriptionDigest: job.frenchDescriptionDigest,
  };
}

function render(row: PreviewRow): JobPreview {
  return {
    id: row.id,
    referenceId: row.referenceId,
    employer: employerOf(row),
    title: row.title,
    publishDate: formatDate(row.publishDate),
    closeDate: formatDate(row.closeDate),
    confidential: Boolean(row.confidential),
    autoRefresh: Boolean(row.autoRefresh),
    status: row.status,
    locations: locationsOf(row),
    categories: JSON.parse(row.categories ?? "[]"),
    positionType: row.positionTypeId === null ? null : { id: row.positionTypeId, name: row.positionTypeName ?? "" },
    salary:
      row.salaryAmount === null || row.salaryTypeId === null
        ? null
        : {
            amount: amountJson(row.salaryAmount),
            maxAmount: row.salaryMaxAmount === null ? null : amountJson(row.salaryMaxAmount),
            type: { id: row.salaryTypeId, name: row.salaryTypeName ?? "", unit: row.salaryTypeUnit ?? "" },
            plusCommission: Boolean(row.salaryPlusCommission),
          },
    description: row.description,
    applicantRoutingType: row.routingTypeId === null ? null : { id: row.routingTypeId, name: row.routingTypeName ?? "" },
    applicationEmail: row.applicationEmail,
    applicationUrl: row.applicationUrl,
    aiUsedInSelection: booleanOrNull(row.aiUsedInSelection),
    existingVacancy: booleanOrNull(row.existingVacancy),
    translations: row.translations === null ? null : JSON.parse(row.translations),
    questions: questionsOf(row),
    postingRules: postingRulesOf(row),
    ...moderationOf(row),
  };
}

/** DESIGN 26a: `moderation` on a job the operator removed, absent otherwise. */
function moderationOf(row: Pick<JobRow, "moderationStatus" | "moderationReason" | "moderationAt">): { moderation?: Job["moderation"] } {
  if (row.moderationStatus !== "removed") return {};
  return { moderation: { status: "removed", reason: row.moderationReason as ModerationReason, at: formatDate(row.moderationAt ?? 0) } };
}

const questionsOf = (row: Pick<JobRow, "questions">) => (row.questions === null ? [] : JSON.parse(row.questions));

const booleanOrNull = (value: number | null) => (value === null ? null : Boolean(value));

/** The stored job as the rules see it, for merging a PUT. */
export function toJobState(row: JobRow): JobState {
  return {
    referenceId: row.referenceId,
    title: row.title,
    publishDate: row.publishDate,
    closeDate: row.closeDate,
    confidential: Boolean(row.confidential),
    autoRefresh: Boolean(row.autoRefresh),
    status: row.status,
    positionTypeId: row.positionTypeId,
    salary:
      row.salaryAmount === null && row.salaryTypeId === null && row.salaryMaxAmount === null
        ? null
        : {
            amount: row.salaryAmount,
            maxAmount: row.salaryMaxAmount,
            typeId: row.salaryTypeId,
            plusCommission: Boolean(row.salaryPlusCommission),
          },
    description: row.description,
    routingTypeId: row.routingTypeId,
    applicationEmail: row.applicationEmail,
    applicationUrl: row.applicationUrl,
    categoryIds: (JSON.parse(row.categories ?? "[]") as { id: number }[]).map((c) => c.id),
    places: locationsOf(row).map((location) => ({ kind: "known", location })),
    aiUsedInSelection: booleanOrNull(row.aiUsedInSelection),
    existingVacancy: booleanOrNull(row.existingVacancy),
    translations: row.translations === null ? null : JSON.parse(row.translations),
    canadianExperience: row.canadianExperience,
    questions: questionsOf(row),
    descriptionDigest: row.descriptionDigest,
    frenchDescriptionDigest: row.frenchDescriptionDigest,
  };
}
