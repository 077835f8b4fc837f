import type { JobRow } from "../jobs/repository";
import type { Location } from "../reference/schemas";
import { provinceCodeOf, seqSlotOf, summaryOf, yearlyTopOf } from "./rules";

// DESIGN 17: what the board keeps of a job, from the job as its change left it. Pure: the
// consumer and the cron's repair both project through here, so they cannot disagree.

/** The public gazetteer as the projection needs it (src/board/database/places.ts loads it). */
export interface Gazetteer {
  isPublic(placeId: number): boolean;
  /** The public place (not a province: an area has no point) at exactly these coordinates. */
  placeAt(latitude: number, longitude: number): number | null;
}

/** A job on the board: the row of board_jobs, its lists as JSON for the triggers to spread. */
export interface BoardEntry {
  jobId: number;
  revision: number;
  employerId: number;
  employerName: string;
  confidential: boolean;
  title: string;
  publishDate: number;
  closeDate: number;
  positionTypeId: number | null;
  salaryYearTop: number | null;
  summary: string;
  job: string;
  places: string;
  categories: string;
  seqSlot: { first: number; end: number };
}

/** DESIGN 14: a job is on the board while it is active and not past its closeDate. */
export const isOnBoard = (row: Pick<JobRow, "status" | "closeDate">, nowSeconds: number) => row.status === "active" && row.closeDate > nowSeconds;

export function projectJob(row: JobRow, gazetteer: Gazetteer): BoardEntry {
  const locations = JSON.parse(row.locations) as Location[];
  // A place an employer created is shown by its text alone: its id would single out the employer (DESIGN 6b).
  const shown = locations.map((location) => ({ ...location, id: gazetteer.isPublic(location.id) ? location.id : null }));
  const places = shown.map((location) => ({
    placeId: location.id,
    geoId:
      location.type === "Province" || location.latitude === null || location.longitude === null
        ? null
        : gazetteer.placeAt(location.latitude, location.longitude),
    province: provinceCodeOf(location),
  }));
  const categories = (JSON.parse(row.categories) as { id: number }[]).map((category) => category.id);
  // What the board shows: never the referenceId or the applicationEmail; the employer's name
  // is the board's own (board_employers), so a rename reaches every job at once.
  const job: JobRow = { ...row, referenceId: null, applicationEmail: null, employerName: "", locations: JSON.stringify(shown) };
  return {
    jobId: row.id,
    revision: row.revision,
    employerId: row.employerId,
    employerName: row.employerName,
    confidential: Boolean(row.confidential),
    title: row.title ?? "",
    publishDate: row.publishDate,
    closeDate: row.closeDate,
    positionTypeId: row.positionTypeId,
    salaryYearTop: yearlyTopOf(row.salaryAmount, row.salaryMaxAmount, row.salaryTypeId),
    summary: summaryOf(row.description),
    job: JSON.stringify(job),
    places: JSON.stringify(places),
    categories: JSON.stringify(categories),
    seqSlot: seqSlotOf(row.publishDate),
  };
}
