import type { JobRow } from "../jobs/repository";
import { toJob } from "../jobs/representation";
import type { Location } from "../reference/schemas";
import { provinceCodeOf } from "../locations/provinces";
import { searchTokensOf, seqSlotOf, summaryOf, yearlyTopOf } from "./rules";

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
  /** The title's search tokens. */
  words: string;
  publishDate: number;
  closeDate: number;
  positionTypeId: number | null;
  salaryYearTop: number | null;
  summary: string;
  /** The list item's JSON before and after its employer, joined by a NUL (src/board/representation.ts). */
  item: string;
  job: string;
  places: string;
  categories: string;
  seqSlot: { first: number; end: number };
}

/** DESIGN 14: a job is on the board while it is active and not past its closeDate. */
/** Active, open, and not a test job (DESIGN 21; snapshots older than the test space have no `test`). */
export const isOnBoard = (row: Pick<JobRow, "status" | "closeDate" | "test">, nowSeconds: number) => row.status === "active" && row.closeDate > nowSeconds && !row.test;

export function projectJob(row: JobRow, gazetteer: Gazetteer): BoardEntry {
  const locations = JSON.parse(row.locations) as Location[];
  // A place an employer created is shown by its text alone: its id would single out the employer (DESIGN 6b).
  const shown = locations.map((location) => ({ ...location, id: gazetteer.isPublic(location.id) ? location.id : null }));
  const places = shown.map((location) => {
    // A province is an area: it has no point to measure a distance from.
    const point = location.type !== "Province" && location.latitude !== null && location.longitude !== null;
    return {
      placeId: location.id,
      geoId: point ? gazetteer.placeAt(location.latitude!, location.longitude!) : null,
      province: provinceCodeOf(location),
      latitude: point ? location.latitude : null,
      longitude: point ? location.longitude : null,
    };
  });
  const categories = (JSON.parse(row.categories) as { id: number }[]).map((category) => category.id);
  // What the board shows: never the referenceId or the applicationEmail; the employer's name
  // is the board's own (board_employers), so a rename reaches every job at once.
  // Nor the employer's settings: they are its own business, not the board's (DESIGN 19a).
  const job: JobRow = {
    ...row,
    referenceId: null,
    applicationEmail: null,
    employerName: "",
    locations: JSON.stringify(shown),
    employerOntarioEmployees: null,
    employerFederallyRegulated: 0,
    employerPostingRules: "warn",
    employerRevision: 0,
  };
  const summary = summaryOf(row.description);
  return {
    jobId: row.id,
    revision: row.revision,
    employerId: row.employerId,
    employerName: row.employerName,
    confidential: Boolean(row.confidential),
    title: row.title ?? "",
    words: searchTokensOf(row.title ?? ""),
    publishDate: row.publishDate,
    closeDate: row.closeDate,
    positionTypeId: row.positionTypeId,
    salaryYearTop: yearlyTopOf(row.salaryAmount, row.salaryMaxAmount, row.salaryTypeId),
    summary,
    item: itemOf(job, summary),
    job: JSON.stringify(job),
    places: JSON.stringify(places),
    categories: JSON.stringify(categories),
    seqSlot: seqSlotOf(row.publishDate),
  };
}

/**
 * The board item (DESIGN 14) without its employer and url, which the read adds: the employer's
 * name is the board's current one, the url the request's origin.
 */
function itemOf(row: JobRow, summary: string): string {
  const job = toJob(row);
  const head = JSON.stringify({ id: job.id, title: job.title }).slice(0, -1);
  const { publishDate, closeDate, locations, categories, positionType, salary } = job;
  const tail = JSON.stringify({ publishDate, closeDate, locations, categories, positionType, salary, summary }).slice(1, -1);
  return `${head}\u0000${tail}`;
}
