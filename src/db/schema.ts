import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

// Times are Unix seconds (UTC); money is an integer count of ten-thousandths, so
// 65000.1234 is stored as 650001234 and no float ever touches an amount.

export const employers = sqliteTable(
  "employers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["standard", "unlimited"] }).notNull().default("standard"),
    createdAt: integer("created_at").notNull(),
    // DESIGN 19: the settings the posting rules read. Unknown Ontario headcount (null) counts as 25 or more.
    ontarioEmployees: integer("ontario_employees"),
    federallyRegulated: integer("federally_regulated", { mode: "boolean" }).notNull().default(false),
    postingRules: text("posting_rules", { enum: ["warn", "enforce"] }).notNull().default("warn"),
    // Grows with every change of the settings: every job answer shows the employer (its name, its
    // rules' outcomes), so a job's ETag carries it, and job writes are conditioned on it.
    revision: integer("revision").notNull().default(1),
    // DESIGN 21: an employer's test space is an employer row of its own, reached only by
    // jpa_test_ keys; it names the employer it belongs to. Null for a live employer.
    testOf: integer("test_of").references((): AnySQLiteColumn => employers.id),
    // DESIGN 22, 22b: while the employer's move to another shard is in its last seconds
    // (src/shards/online-move.ts), when it was frozen (ms): triggers then refuse every write of its rows (drizzle/0023). Null: not moving.
    frozenAt: integer("frozen_at"),
    // DESIGN 22: the shard the employer moved to; this row is then a tombstone that requests
    // routed here by a stale cache follow (src/shards/follow.ts), and it refuses writes too.
    // Null: the employer lives in this shard.
    movedTo: integer("moved_to"),
    // DESIGN 26: when the operator suspended the employer (ms); null: not suspended. Its jobs are
    // off the board (src/jobs/on-board.ts) and its writes refused (src/employers/suspension.ts).
    suspendedAt: integer("suspended_at"),
  },
  (t) => [
    uniqueIndex("employers_test_of_unique").on(t.testOf).where(sql`${t.testOf} IS NOT NULL`),
    // The locked employers (moving, or moved away): the cron's statements leave their rows alone
    // with `employer_id NOT IN (…)`, read from this small index (src/shards/locks.ts).
    index("employers_locked_idx").on(t.id).where(sql`${t.frozenAt} IS NOT NULL OR ${t.movedTo} IS NOT NULL`),
    // DESIGN 26: the operator's search by the start of a name, any case (src/employers/repository.ts searchEmployers).
    index("employers_name_search_idx").on(sql`${t.name} COLLATE NOCASE`),
    // DESIGN 26: the suspended employers (a handful), which the board's reads leave out.
    index("employers_suspended_idx").on(t.id).where(sql`${t.suspendedAt} IS NOT NULL`),
    check("employers_plan_check", sql`${t.plan} IN ('standard', 'unlimited')`),
    check("employers_posting_rules_check", sql`${t.postingRules} IN ('warn', 'enforce')`),
    check("employers_name_length", sql`length(${t.name}) BETWEEN 1 AND 128`),
  ],
);

export const positionTypes = sqliteTable("position_types", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
});

export const salaryTypes = sqliteTable("salary_types", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  unit: text("unit").notNull(),
});

export const applicantRoutingTypes = sqliteTable("applicant_routing_types", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
});

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
});

export const locations = sqliteTable(
  "locations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull(),
    type: text("type").notNull(),
    provinceCode: text("province_code").notNull(),
    // Lower-case, accent-free, single-spaced name: what lookups and prefix search compare.
    nameKey: text("name_key").notNull(),
    // 1 = most populous; null for places created from job requests (ranked last).
    populationRank: integer("population_rank"),
    // DESIGN 17: the source's population where it has one (null otherwise); the rank decides ties.
    population: integer("population"),
    // DESIGN 17: WGS 84 degrees with the source's precision; null where no gazetteer entry matches.
    latitude: real("latitude"),
    longitude: real("longitude"),
    source: text("source", { enum: ["gazetteer", "employer"] }).notNull(),
    // DESIGN 3: a place created from a job request belongs to that employer (null: the seeded
    // gazetteer, public). Leading the unique index, it also bounds the owner's lookups and count.
    ownerEmployerId: integer("owner_employer_id"),
  },
  (t) => [
    uniqueIndex("locations_owner_place_unique").on(t.ownerEmployerId, t.nameKey, t.provinceCode, t.type),
    index("locations_name_key_rank_idx").on(t.nameKey, t.populationRank),
  ],
);

export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    employerId: integer("employer_id")
      .notNull()
      .references(() => employers.id, { onDelete: "cascade" }),
    referenceId: text("reference_id"),
    title: text("title"),
    publishDate: integer("publish_date").notNull(),
    closeDate: integer("close_date").notNull(),
    confidential: integer("confidential", { mode: "boolean" }).notNull().default(false),
    autoRefresh: integer("auto_refresh", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: ["active", "archived", "draft"] }).notNull(),
    positionTypeId: integer("position_type_id").references(() => positionTypes.id),
    salaryAmount: integer("salary_amount"),
    salaryMaxAmount: integer("salary_max_amount"),
    salaryTypeId: integer("salary_type_id").references(() => salaryTypes.id),
    salaryPlusCommission: integer("salary_plus_commission", { mode: "boolean" }),
    description: text("description"),
    applicantRoutingTypeId: integer("applicant_routing_type_id").references(
      () => applicantRoutingTypes.id,
    ),
    applicationEmail: text("application_email"),
    applicationUrl: text("application_url"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    // DESIGN 11: grows by one with every change of the job (requests and the cron alike); the
    // ETag is made from it, and conditional writes compare it.
    revision: integer("revision").notNull().default(1),
    // DESIGN 19: statements the posting rules ask for (null: not said).
    aiUsedInSelection: integer("ai_used_in_selection", { mode: "boolean" }),
    existingVacancy: integer("existing_vacancy", { mode: "boolean" }),
    // `{ "fr": { "title", "description" } }` as JSON text, the description cleaned; null: none.
    translations: text("translations"),
    // Which of title, description and translations.fr ask for Canadian experience (a bit mask
    // of CANADIAN_EXPERIENCE_FIELDS), found when written so a list page need not read the texts.
    canadianExperience: integer("canadian_experience").notNull().default(0),
    // DESIGN 20: the screening questions as JSON text (src/screening/questions.ts); null: none.
    questions: text("questions"),
    // Issue 27: the digest of the raw input each description was cleaned from
    // (src/description/digest.ts), so the same input sent again is not cleaned again; null: unknown.
    descriptionDigest: text("description_digest"),
    frenchDescriptionDigest: text("french_description_digest"),
    // DESIGN 21: a job of an employer's test space (set by a trigger from its employer when
    // inserted): never on the board or its pages, never applied to by the public.
    test: integer("test", { mode: "boolean" }).notNull().default(false),
    // DESIGN 26: an operator removed the job ('removed', null otherwise): it is archived and may
    // not be published again until restored. Why (a reason of src/jobs/moderation.ts) and when (s).
    moderationStatus: text("moderation_status", { enum: ["removed"] }),
    moderationReason: text("moderation_reason"),
    moderationAt: integer("moderation_at"),
  },
  (t) => [
    check("jobs_status_check", sql`${t.status} IN ('active', 'archived', 'draft')`),
    // The employer's list, newest first with id breaking ties: SQLite walks these backwards.
    index("jobs_employer_list_idx").on(t.employerId, t.publishDate, t.id),
    index("jobs_employer_status_list_idx").on(
      t.employerId,
      t.status,
      t.publishDate,
      t.id,
    ),
    uniqueIndex("jobs_employer_reference_unique")
      .on(t.employerId, t.referenceId)
      .where(sql`${t.referenceId} IS NOT NULL`),
    // The cron's two set-based statements.
    index("jobs_auto_refresh_idx").on(t.status, t.autoRefresh, t.publishDate),
    index("jobs_expiry_idx").on(t.status, t.closeDate),
    // The board's repair by the cron (DESIGN 17): the jobs that should be on the board, by id,
    // with what it compares, read from the index alone (its employer: a suspended one's are not, DESIGN 26).
    index("jobs_visible_idx").on(t.id, t.revision, t.closeDate, t.updatedAt, t.employerId).where(sql`${t.status} = 'active' AND ${t.test} = 0`),
  ],
);

/**
 * DESIGN 21: the closeDate each job's `job.expiring` was sent for, so the cron sends it once per
 * closeDate (a new closeDate can send it again). Apart from jobs: a notice changes no job.
 */
export const jobExpiryNotices = sqliteTable("job_expiry_notices", {
  jobId: integer("job_id")
    .primaryKey()
    .references(() => jobs.id, { onDelete: "cascade" }),
  closeDate: integer("close_date").notNull(),
});

export const jobLocations = sqliteTable(
  "job_locations",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    locationId: integer("location_id")
      .notNull()
      .references(() => locations.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.locationId] })],
);

export const jobCategories = sqliteTable(
  "job_categories",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.categoryId] })],
);

// Exact list totals without counting rows: one counter per employer and status, kept right
// by triggers on jobs (drizzle/0003_job_counters_and_search.sql), so the cron's set-based
// updates keep it right too. The trigram full-text index for `q` lives in the same migration.
export const jobCounts = sqliteTable(
  "job_counts",
  {
    employerId: integer("employer_id").notNull(),
    status: text("status").notNull(),
    total: integer("total").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.employerId, t.status] })],
);
