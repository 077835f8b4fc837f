import type { Location } from "../reference/schemas";
import { formatDate } from "./dates";
import { amountJson } from "./money";
import type { JobHeaderRow, JobRow } from "./repository";
import type { JobState } from "./rules";
import type { Job, JobHeader } from "./schemas";

const employerOf = (row: JobHeaderRow) => ({ id: row.employerId, name: row.employerName });
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
  };
}

/** Spec 2.1, in its order: every member present, null where absent; money as four-decimal JSON numbers. */
export function toJob(row: JobRow): Job {
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
  };
}

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
  };
}
