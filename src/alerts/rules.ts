import type { BoardEntry } from "../board/alerts";
import { distanceKm, searchTokensOf, wordsOf } from "../board/rules";

// DESIGN 23: the pure rules of job alerts — what an alert requires of a job (the board's own
// search rules, applied to one job), how alerts are filed for the reverse search, which jobs an
// email holds, and when an email is due. No I/O.

/** An alert's search, as POST /alerts takes it (src/alerts/schemas.ts) and as stored. */
export interface AlertSearch {
  q?: string;
  near?: number;
  radiusKm?: number;
  province?: string;
  category?: number;
  positionType?: number;
  salaryMin?: number;
}

/** DESIGN 17: the radius of a search with `near` and no `radiusKm` (the board's default). */
export const DEFAULT_RADIUS_KM = 50;

/** What matching needs of a stored alert: its search and, with `near`, that place's point. */
export interface MatchableAlert {
  search: AlertSearch;
  centre: { latitude: number; longitude: number } | null;
}

interface EntryPlace {
  placeId: number | null;
  geoId: number | null;
  province: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** What the board's search reads of a job, from the board's own projection of it. */
export interface JobFacts {
  jobId: number;
  /** Search tokens of the title and of the employer's public name (none for a confidential employer), as the board's word index holds them. */
  tokens: Set<string>;
  places: EntryPlace[];
  categories: number[];
  positionTypeId: number | null;
  salaryYearTop: number | null;
  closeDate: number;
}

export function jobFactsOf(entry: BoardEntry): JobFacts {
  // The board's word index: the title's tokens, and the employer's unless confidential (drizzle/board/0001).
  const text = `${entry.words} ${entry.confidential ? "" : searchTokensOf(entry.employerName)}`;
  return {
    jobId: entry.jobId,
    tokens: new Set(text.split(" ").filter(Boolean)),
    places: JSON.parse(entry.places) as EntryPlace[],
    categories: JSON.parse(entry.categories) as number[],
    positionTypeId: entry.positionTypeId,
    salaryYearTop: entry.salaryYearTop,
    closeDate: entry.closeDate,
  };
}

/**
 * The final check, with the board's own rules (src/board/search.ts, database/reads.ts): every word
 * of `q` is a token of the job (a word or a word's prefix, case and accents ignored); a place with
 * a point within the great-circle radius; a place in the province; the category; the position
 * type; the salary's yearly top reaching `salaryMin`; and not past its closeDate.
 */
export function matches(alert: MatchableAlert, job: JobFacts, nowSeconds: number): boolean {
  const { search, centre } = alert;
  if (job.closeDate <= nowSeconds) return false;
  if (!wordsOf(search.q).every((word) => job.tokens.has(word))) return false;
  if (search.near !== undefined) {
    const radius = search.radiusKm ?? DEFAULT_RADIUS_KM;
    const within = centre !== null && job.places.some((place) => place.geoId !== null && place.latitude !== null && place.longitude !== null && distanceKm(centre, { latitude: place.latitude, longitude: place.longitude }) <= radius);
    if (!within) return false;
  }
  if (search.province !== undefined && !job.places.some((place) => place.province === search.province)) return false;
  if (search.category !== undefined && !job.categories.includes(search.category)) return false;
  if (search.positionType !== undefined && job.positionTypeId !== search.positionType) return false;
  if (search.salaryMin !== undefined && !(job.salaryYearTop !== null && job.salaryYearTop >= search.salaryMin)) return false;
  return true;
}

// The reverse-search index (DESIGN 23): each alert is filed under what it requires, so a job reads
// only the alerts filed under terms it has: where it looks (the 1° cells its `near` circle
// touches, else its province) together with what it requires besides (its longest word, else its
// category and position type), as one term per cell (`w:comptable|p:QC`, `g:45:-74|k:3`). Filed
// under the place or the word alone, a job in Toronto would read every alert around Toronto, or
// every alert of the country for a common word. A salary alone is the catch-all term. A job files
// under every term and combination it has.

const CELL_DEGREES = 1;
/** A circle so far north that it spans more cells than this is filed by its latitude rows instead. */
const MAX_CELLS_PER_ROW = 60;
const cell = (degrees: number) => Math.floor(degrees / CELL_DEGREES);
export const ANY_TERM = "*";

export function termsOfAlert(alert: MatchableAlert): string[] {
  const { search } = alert;
  const words = wordsOf(search.q);
  // What it requires besides the place: its longest word (the rarest; every word is required, so
  // any one will do), else its category and position type.
  const what = words.length
    ? [`w:${words.reduce((longest, next) => ([...next].length > [...longest].length ? next : longest))}`]
    : [search.category !== undefined ? `k:${search.category}` : null, search.positionType !== undefined ? `t:${search.positionType}` : null].filter((term) => term !== null);
  const where = placeTermsOf(alert);
  if (!where) return what.length ? [what.join("|")] : [ANY_TERM];
  // The word stays first (`w:…|p:ON`); else the place leads (`p:ON|k:3`, `g:43:-80|t:2`).
  return where.map((place) => (words.length ? [...what, place] : [place, ...what]).join("|"));
}

/** Where an alert looks: the cells (or latitude rows) its `near` circle touches, else its province; null: anywhere. */
function placeTermsOf({ search, centre }: MatchableAlert): string[] | null {
  if (search.near !== undefined && centre) {
    const radius = search.radiusKm ?? DEFAULT_RADIUS_KM;
    // As the board's radius search bands it: a degree of latitude is at least 110.5 km.
    const band = radius / 110.5;
    const lonBand = band / Math.max(Math.cos(((Math.abs(centre.latitude) + band) * Math.PI) / 180), 0.01);
    const rows: number[] = [];
    for (let r = cell(centre.latitude - band); r <= cell(centre.latitude + band); r++) rows.push(r);
    const [west, east] = [cell(centre.longitude - lonBand), cell(centre.longitude + lonBand)];
    if (east - west + 1 > MAX_CELLS_PER_ROW) return rows.map((r) => `r:${r}`);
    return rows.flatMap((r) => Array.from({ length: east - west + 1 }, (_, i) => `g:${r}:${west + i}`));
  }
  return search.province !== undefined ? [`p:${search.province}`] : null;
}

/** Every non-empty combination, in order, of one term from each list that has some: `p:ON|k:3`, `p:ON`, `k:3`, … */
function combinations(lists: string[][]): string[] {
  return lists.reduce<string[]>((terms, list) => [...terms, ...list, ...terms.flatMap((term) => list.map((next) => `${term}|${next}`))], []);
}

/** Every term an alert that could match this job may be filed under. */
export function termsOfJob(job: JobFacts): string[] {
  const terms = new Set<string>([ANY_TERM]);
  const cells = job.places.flatMap((place) =>
    place.geoId !== null && place.latitude !== null && place.longitude !== null ? [`g:${cell(place.latitude)}:${cell(place.longitude)}`, `r:${cell(place.latitude)}`] : [],
  );
  const provinces = [...new Set(job.places.flatMap((place) => (place.province ? [`p:${place.province}`] : [])))];
  const places = [...new Set([...cells, ...provinces])];
  for (const term of places) terms.add(term);
  for (const token of job.tokens) {
    terms.add(`w:${token}`);
    for (const place of places) terms.add(`w:${token}|${place}`);
  }
  const categories = job.categories.map((category) => `k:${category}`);
  const positionTypes = job.positionTypeId !== null ? [`t:${job.positionTypeId}`] : [];
  for (const term of combinations([places, categories, positionTypes])) terms.add(term);
  return [...terms];
}

/** The job as an alert email and feed show it: the board's list item, its employer's public name or null when confidential. */
export interface JobCard {
  id: number;
  title: string | null;
  employer: string | null;
  publishDate: string;
  closeDate: string;
  locations: { description: string }[];
  salary: { amount: number; maxAmount: number | null; type: { id: number; name: string; unit: string }; plusCommission: boolean } | null;
}

export function cardOf(entry: BoardEntry): JobCard {
  const [head, tail] = entry.item.split("\u0000");
  const item = JSON.parse(`${head},${tail}}`) as Omit<JobCard, "employer">;
  return {
    id: entry.jobId,
    title: item.title,
    employer: entry.confidential ? null : entry.employerName,
    publishDate: item.publishDate,
    closeDate: item.closeDate,
    locations: item.locations.map((location) => ({ description: location.description })),
    salary: item.salary,
  };
}

// DESIGN 23: an email holds at most 15 jobs, newest first, at most 2 per employer.
export const JOBS_PER_EMAIL = 15;
export const JOBS_PER_EMPLOYER = 2;

export interface Candidate {
  jobId: number;
  employerId: number;
  publishDate: number;
}

/** The jobs an email holds, of the unsent matches still on the board (newest first). */
export function pickJobs<T extends Candidate>(candidates: T[]): T[] {
  const perEmployer = new Map<number, number>();
  const picked: T[] = [];
  for (const candidate of [...candidates].sort((a, b) => b.publishDate - a.publishDate || b.jobId - a.jobId)) {
    const count = perEmployer.get(candidate.employerId) ?? 0;
    if (count >= JOBS_PER_EMPLOYER) continue;
    perEmployer.set(candidate.employerId, count + 1);
    picked.push(candidate);
    if (picked.length === JOBS_PER_EMAIL) break;
  }
  return picked;
}
