import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { receiptsTable } from "../../events/receipts";

// DESIGN 17: the board's own database (binding BOARD_DB), a projection of the employer side
// built from its events. Every row is derived from jobs and can be rebuilt (src/board/reconcile.ts),
// except board_places, a copy of the public gazetteer that a migration seeds. The word index
// (board_search, FTS5) and the triggers that keep the lists below in step with board_jobs live in
// drizzle/board/0001_search_and_triggers.sql: drizzle-kit cannot express them.

/** One row per job on the board. `seq` orders the board: newest publishDate first is seq descending. */
export const boardJobs = sqliteTable(
  "board_jobs",
  {
    /** publishDate × 2^21 + the order of publication within that second (src/board/sequence.ts). */
    seq: integer("seq").primaryKey(),
    jobId: integer("job_id").notNull(),
    revision: integer("revision").notNull(),
    employerId: integer("employer_id").notNull(),
    confidential: integer("confidential", { mode: "boolean" }).notNull(),
    title: text("title").notNull(),
    /** The title's search tokens: every prefix of every word (src/board/rules.ts searchTokensOf). */
    words: text("words").notNull(),
    publishDate: integer("publish_date").notNull(),
    closeDate: integer("close_date").notNull(),
    positionTypeId: integer("position_type_id"),
    /** The top of the salary range converted to CAD a year (DESIGN 17); null without a salary. */
    salaryYearTop: real("salary_year_top"),
    summary: text("summary").notNull(),
    /**
     * The list item as JSON, rendered once here rather than at every read: its text before the
     * employer and after it, joined by a NUL (which JSON text never holds unescaped).
     */
    item: text("item").notNull(),
    /** The public job (src/board/projection.ts), JSON. */
    job: text("job").notNull(),
    /** JSON `[{ placeId, geoId, province }]`: the triggers fill board_job_places and board_job_provinces from it. */
    places: text("places").notNull(),
    /** JSON array of category ids: the triggers fill board_job_categories from it. */
    categories: text("categories").notNull(),
    /**
     * DESIGN 22: the employer-side shard the job lives in, as its events or the repair said: where
     * a public write to the job (an application, a report, a view) goes.
     */
    shard: integer("shard").notNull().default(0),
  },
  (t) => [
    uniqueIndex("board_jobs_job_idx").on(t.jobId),
    // The cron's repair compares one shard's jobs at a time, by job id.
    index("board_jobs_shard_idx").on(t.shard, t.jobId),
    index("board_jobs_employer_idx").on(t.employerId),
    // The rowid (seq) ends every index: each reads in seq order within one value.
    index("board_jobs_position_type_idx").on(t.positionTypeId),
  ],
);

/** A job's places: `placeId` only for a public place (an employer's own is never filtered by). */
export const boardJobPlaces = sqliteTable(
  "board_job_places",
  {
    seq: integer("seq").notNull(),
    position: integer("position").notNull(),
    placeId: integer("place_id"),
    /** The public place whose coordinates this place has (a province has none: it is an area). */
    geoId: integer("geo_id"),
  },
  (t) => [
    primaryKey({ columns: [t.seq, t.position] }),
    index("board_job_places_place_idx").on(t.placeId, t.seq).where(sql`${t.placeId} IS NOT NULL`),
    index("board_job_places_geo_idx").on(t.geoId, t.seq).where(sql`${t.geoId} IS NOT NULL`),
  ],
);

/** The provinces a job is in, once each, in seq order per province. */
export const boardJobProvinces = sqliteTable(
  "board_job_provinces",
  {
    provinceCode: text("province_code").notNull(),
    seq: integer("seq").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provinceCode, t.seq] })],
);

export const boardJobCategories = sqliteTable(
  "board_job_categories",
  {
    categoryId: integer("category_id").notNull(),
    seq: integer("seq").notNull(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.seq] })],
);

/** Employers' public names, one row per employer with a job on the board. */
export const boardEmployers = sqliteTable("board_employers", {
  employerId: integer("employer_id").primaryKey(),
  name: text("name").notNull(),
  /** The name's search tokens (empty for nothing: a confidential job never uses them). */
  words: text("words").notNull(),
  /** When this name was set (ms; 0: taken from a job's change), so an older rename never wins. */
  namedAt: integer("named_at").notNull(),
});

/**
 * The newest revision the board applied for each job it heard of, on the board or not, and
 * whether the job was deleted: a repeated or older message is then ignored.
 */
export const boardRevisions = sqliteTable("board_revisions", {
  jobId: integer("job_id").primaryKey(),
  revision: integer("revision").notNull(),
  deleted: integer("deleted", { mode: "boolean" }).notNull(),
  /** DESIGN 18a: the job was on the board once: its page answers 410 once it left (404 for a job never listed). */
  listed: integer("listed", { mode: "boolean" }).notNull().default(false),
  /**
   * DESIGN 22: the employer-side shard of the job, as its newest change said: where a public
   * write to it (an application, a report, a view counted a moment before the job left) goes.
   */
  shard: integer("shard").notNull().default(0),
});

/**
 * DESIGN 26: employers the operator suspended, as their events told the board (`changedAt`: the
 * event's time, ms, so that an older event never wins): none of their jobs is put on the board
 * while `suspended`. Not derived from jobs: a rebuild keeps it (the employer side leaves a
 * suspended employer's jobs out of what it hands the board anyway).
 */
export const boardSuspensions = sqliteTable("board_suspensions", {
  employerId: integer("employer_id").primaryKey(),
  suspended: integer("suspended", { mode: "boolean" }).notNull(),
  changedAt: integer("changed_at").notNull(),
});

/** The public gazetteer (seeded by a migration), with the number of board jobs at each place. */
export const boardPlaces = sqliteTable(
  "board_places",
  {
    id: integer("id").primaryKey(),
    type: text("type").notNull(),
    provinceCode: text("province_code").notNull(),
    latitude: real("latitude"),
    longitude: real("longitude"),
    /** Board jobs with this place as their geo place (the triggers count them). */
    jobs: integer("jobs").notNull().default(0),
  },
  (t) => [index("board_places_coordinates_idx").on(t.latitude, t.longitude).where(sql`${t.latitude} IS NOT NULL AND ${t.type} <> 'Province'`)],
);

/** One row (id 1): how many jobs the board holds, for the radius search's choice of plan. */
export const boardTotals = sqliteTable("board_totals", {
  id: integer("id").primaryKey(),
  jobs: integer("jobs").notNull(),
});

/** DESIGN 16a: the events the board's consumer took, in the batch that applied them; read through boardSubscriber.taken. */
export const boardReceipts = receiptsTable("board_receipts");
