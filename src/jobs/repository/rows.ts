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
}

export type JobHeaderRow = Pick<
  JobRow,
  "id" | "referenceId" | "employerId" | "employerName" | "title" | "publishDate" | "confidential" | "status" | "locations"
>;
