// All of the jobs capability's SQL, split by what it does; other code imports it from here.
export { JOB_FROM, publicColumns, selectedColumns } from "./columns";
export { jobEventStatements, jobEventsByReferenceStatement, scheduledEventSource, unchangedJobEventSource } from "./event-sources";
export { listJobs, type ListFilter } from "./list";
export { reconcileJobs, unlistedJobs } from "./reconcile";
export { findJob, findJobsByReferenceWithOwner, fromJobSnapshots, jobSnapshot, jobSnapshotsByReference, parseJobSnapshot, writeJobs } from "./reads";
export type { JobFactsRow, JobHeaderRow, JobRow, JobRulesRow } from "./rows";
export { withLaterMembers } from "./rows";
export { all, EmployerChanged, employerGuard, PlaceLimitReached, PostingRulesRefused, RevisionMismatch, type JobKey } from "./statements";
export {
  deleteJob,
  deleteStatements,
  findOwnedPlaces,
  insertJob,
  isReferenceIdConflict,
  MAX_OWNED_PLACES,
  updateJob,
  upsertStatements,
  WATCHED_COLUMNS,
  type ExtraStatements,
  type UpdatedJob,
  type OwnedPlace,
} from "./writes";
export { findModeratedJobs, moderateJob, type ModeratedJob, type ModerationChange } from "./moderation";
