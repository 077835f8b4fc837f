import { sql } from "drizzle-orm";
import type { Gazetteer } from "../projection";
import { DISTANCE_SQL } from "../rules";
import { all, type BoardDatabase } from "./client";

// The public gazetteer in the board's database (seeded by a migration, drizzle/board/0002_places.sql).

let cached: Promise<Gazetteer> | undefined;

/**
 * The gazetteer the projection needs, read once per isolate: it changes only with a migration,
 * which comes with a deploy and so with new isolates.
 */
export function loadGazetteer(db: BoardDatabase): Promise<Gazetteer> {
  cached ??= all<{ id: number; type: string; latitude: number | null; longitude: number | null }>(
    db,
    sql`SELECT id, type, latitude, longitude FROM board_places ORDER BY id`,
  )
    .then((rows) => {
      const ids = new Set(rows.map((row) => row.id));
      const byPoint = new Map<string, number>();
      for (const row of rows) {
        if (row.type === "Province" || row.latitude === null || row.longitude === null) continue;
        const point = `${row.latitude},${row.longitude}`;
        if (!byPoint.has(point)) byPoint.set(point, row.id);
      }
      return { isPublic: (id: number) => ids.has(id), placeAt: (latitude: number, longitude: number) => byPoint.get(`${latitude},${longitude}`) ?? null };
    })
    .catch((error) => {
      cached = undefined;
      throw error;
    });
  return cached;
}

export async function isPublicPlace(db: BoardDatabase, id: number): Promise<boolean> {
  return (await all(db, sql`SELECT 1 FROM board_places WHERE id = ${id}`)).length > 0;
}

/** Where a radius search starts and which places it covers, with how many board jobs each has. */
export interface Neighbourhood {
  centre: { latitude: number; longitude: number };
  /** Places within the radius that have board jobs (ids of board_job_places.geo_id). */
  places: number[];
  /** Board jobs at those places (a job at two of them counts twice). */
  jobs: number;
  /** Board jobs in all. */
  boardJobs: number;
}

/**
 * One round trip: the places within `radiusKm` of `near` (a latitude band and a longitude band
 * on an index, then the exact great-circle distance), or null when `near` is not a public
 * place with coordinates (a province is an area, not a point).
 */
export async function neighbourhoodOf(db: BoardDatabase, near: number, radiusKm: number): Promise<Neighbourhood | null> {
  // A degree of latitude is at least 110.5 km, so this band holds every place within the radius.
  const band = radiusKm / 110.5;
  const rows = await all<{ id: number; jobs: number; latitude: number; longitude: number; boardJobs: number }>(
    db,
    sql`SELECT p.id, p.jobs, c.latitude, c.longitude, (SELECT jobs FROM board_totals WHERE id = 1) AS boardJobs
      FROM board_places c JOIN board_places p
      WHERE c.id = ${near} AND c.type <> 'Province' AND c.latitude IS NOT NULL
        AND p.type <> 'Province' AND p.latitude BETWEEN c.latitude - ${band} AND c.latitude + ${band}
        AND p.longitude BETWEEN c.longitude - ${band} / max(cos(radians(abs(c.latitude) + ${band})), 0.01)
                            AND c.longitude + ${band} / max(cos(radians(abs(c.latitude) + ${band})), 0.01)
        AND (p.jobs > 0 OR p.id = c.id)
        AND ${sql.raw(DISTANCE_SQL("c", "p"))} <= ${radiusKm}`,
  );
  if (rows.length === 0) return null;
  const withJobs = rows.filter((row) => row.jobs > 0);
  return {
    centre: { latitude: rows[0].latitude, longitude: rows[0].longitude },
    places: withJobs.map((row) => row.id),
    jobs: withJobs.reduce((sum, row) => sum + row.jobs, 0),
    boardJobs: rows[0].boardJobs,
  };
}
