import { ValidationError } from "../http/problem";
import { boardPage, type BoardFilter, type BoardItemRow } from "./database/reads";
import type { BoardDatabase } from "./database/client";
import { isPublicPlace, neighbourhoodOf } from "./database/places";
import { distanceKm, roundKm, type Coordinates } from "./rules";

// DESIGN 17: a board search, from its validated query to the page's rows.

/** A search as the query asks it: the board's filter, with `near` as a place and a radius. */
export type BoardSearch = Omit<BoardFilter, "near"> & { near?: { placeId: number; radiusKm: number } };

export interface FoundRow extends BoardItemRow {
  /** The distance from `near` to the nearest of the job's places, when searching by radius. */
  distanceKm?: number;
}

/**
 * The radius search reads jobs from its places (then sorts them) when those hold few jobs, and
 * walks the board in seq order checking the places otherwise: walking costs about
 * page × board jobs ÷ jobs at the places, reading them costs the jobs at the places; the
 * cheaper of the two is taken, so neither a remote town nor a big city costs more than about
 * √(page × board jobs) rows.
 */
const readByPlaces = (jobsThere: number, boardJobs: number, limit: number) => jobsThere * jobsThere <= limit * boardJobs;

export async function searchBoard(db: BoardDatabase, search: BoardSearch, after: number | null, limit: number, now: number): Promise<FoundRow[]> {
  const filter: BoardFilter = { ...search, near: undefined };
  let centre: Coordinates | null = null;
  if (search.near) {
    const around = await neighbourhoodOf(db, search.near.placeId, search.near.radiusKm);
    if (!around) throw new ValidationError([{ field: "near", message: "near must be the id of a public place with coordinates (GET /api/v1.1/locations); a province is an area, not a point." }]);
    if (around.jobs === 0) return [];
    centre = around.centre;
    filter.near = { places: around.places, byPlaces: readByPlaces(around.jobs, around.boardJobs, limit) };
  }
  const rows = await boardPage(db, filter, after, limit, now);
  // Asked only when nothing matched, so a filter by a public place costs no extra round trip.
  if (rows.length === 0 && search.locationId !== undefined && !(await isPublicPlace(db, search.locationId))) {
    throw new ValidationError([{ field: "location", message: "location must be the id of a public place (GET /api/v1.1/locations)." }]);
  }
  if (!centre) return rows;
  const from = centre;
  return rows.map((row) => ({ ...row, distanceKm: nearestKm(from, row.places) }));
}

/** One decimal, to the nearest of the job's places that has a point (DESIGN 17a). */
function nearestKm(centre: Coordinates, placesJson: string | null): number | undefined {
  const points = (JSON.parse(placesJson ?? "[]") as { latitude: number | null; longitude: number | null }[]).filter(
    (place): place is Coordinates => place.latitude !== null && place.longitude !== null,
  );
  if (points.length === 0) return undefined;
  return roundKm(Math.min(...points.map((point) => distanceKm(centre, point))));
}
