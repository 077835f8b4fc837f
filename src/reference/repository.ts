import { and, asc, count, eq, gte, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { applicantRoutingTypes, categories, locations, positionTypes, salaryTypes } from "../db/schema";
import { placeKey } from "./place-key";
import type { Location, NamedRef, SalaryType } from "./schemas";

export interface GazetteerPlace extends Location {
  provinceCode: string;
  nameKey: string;
  populationRank: number | null;
}

export interface ReferenceData {
  positionTypes: NamedRef[];
  categories: NamedRef[];
  salaryTypes: SalaryType[];
  applicantRoutingTypes: NamedRef[];
  /** The seeded places, so job requests resolve locations without a round trip. */
  gazetteer: GazetteerPlace[];
}

// Seeded by a migration and never edited at run time, so one read per isolate is enough.
let referenceData: Promise<ReferenceData> | undefined;

export function loadReferenceData(db: Database): Promise<ReferenceData> {
  referenceData ??= db
    .batch([
      db.select().from(positionTypes).orderBy(asc(positionTypes.id)),
      db.select().from(categories).orderBy(asc(categories.id)),
      db.select().from(salaryTypes).orderBy(asc(salaryTypes.id)),
      db.select().from(applicantRoutingTypes).orderBy(asc(applicantRoutingTypes.id)),
      db
        .select({
          id: locations.id,
          name: locations.name,
          description: locations.description,
          type: locations.type,
          provinceCode: locations.provinceCode,
          nameKey: locations.nameKey,
          populationRank: locations.populationRank,
          latitude: locations.latitude,
          longitude: locations.longitude,
        })
        .from(locations)
        .where(eq(locations.source, "gazetteer"))
        .orderBy(asc(locations.id)),
    ])
    .then(([positionTypes, categories, salaryTypes, applicantRoutingTypes, gazetteer]) => ({
      positionTypes,
      categories,
      salaryTypes,
      applicantRoutingTypes,
      gazetteer,
    }))
    .catch((error) => {
      referenceData = undefined;
      throw error;
    });
  return referenceData;
}

const locationColumns = {
  id: locations.id,
  name: locations.name,
  description: locations.description,
  type: locations.type,
  latitude: locations.latitude,
  longitude: locations.longitude,
};

/** Prefix search on the accent-free name: shortest name first, then the most populous. */
export async function searchLocations(
  db: Database,
  query: string | undefined,
  page: number,
  pageSize: number,
): Promise<{ rows: Location[]; total: number }> {
  const key = placeKey(query ?? "");
  // A range on name_key uses its index, where LIKE 'key%' would not.
  // The gazetteer only: places employers created are theirs (DESIGN 2), never listed here.
  // owner_employer_id IS NULL leads locations_owner_place_unique, so the range stays on it.
  const filter = and(
    isNull(locations.ownerEmployerId),
    key ? and(gte(locations.nameKey, key), lt(locations.nameKey, `${key}\uffff`)) : undefined,
  );
  const [rows, [{ total }]] = await db.batch([
    db
      .select(locationColumns)
      .from(locations)
      .where(filter)
      .orderBy(asc(sql`length(${locations.name})`), asc(sql`coalesce(${locations.populationRank}, 2147483647)`), asc(locations.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(locations).where(filter),
  ]);
  return { rows, total };
}

/** A location with the employer that owns it (null: the public gazetteer). */
export async function findLocation(db: Database, id: number): Promise<(Location & { ownerEmployerId: number | null }) | undefined> {
  return db
    .select({ ...locationColumns, ownerEmployerId: locations.ownerEmployerId })
    .from(locations)
    .where(eq(locations.id, id))
    .get();
}
