import { sql, type SQL } from "drizzle-orm";
import { prerendered } from "../../db/client";
import { jsonObject } from "../../db/json";
import type { JobRow } from "./rows";

// The job as SQL selects it: every column and joined name once, for reads and snapshots alike.

/** The job's places in order; `id` is how each place's id is shown (the board hides some). */
const locationsJsonOf = (id: SQL) => sql`(
  SELECT json_group_array(json_object('id', ${id}, 'name', l.name, 'description', l.description, 'type', l.type,
    'latitude', l.latitude, 'longitude', l.longitude) ORDER BY jl.position)
  FROM job_locations jl JOIN locations l ON l.id = jl.location_id WHERE jl.job_id = j.id)`;
export const locationsJson = prerendered(locationsJsonOf(sql`l.id`));

const categoriesJson = sql`(
  SELECT json_group_array(json_object('id', c.id, 'name', c.name) ORDER BY jc.position)
  FROM job_categories jc JOIN categories c ON c.id = jc.category_id WHERE jc.job_id = j.id)`;

/** JobRow's members and the SQL of each, once: for the SELECT and for the JSON snapshot. */
const JOB_COLUMNS: [keyof JobRow, SQL][] = [
  ["id", sql`j.id`],
  ["referenceId", sql`j.reference_id`],
  ["employerId", sql`j.employer_id`],
  ["employerName", sql`e.name`],
  ["title", sql`j.title`],
  ["publishDate", sql`j.publish_date`],
  ["closeDate", sql`j.close_date`],
  ["confidential", sql`j.confidential`],
  ["autoRefresh", sql`j.auto_refresh`],
  ["status", sql`j.status`],
  ["positionTypeId", sql`j.position_type_id`],
  ["positionTypeName", sql`pt.name`],
  ["salaryAmount", sql`j.salary_amount`],
  ["salaryMaxAmount", sql`j.salary_max_amount`],
  ["salaryTypeId", sql`j.salary_type_id`],
  ["salaryTypeName", sql`st.name`],
  ["salaryTypeUnit", sql`st.unit`],
  ["salaryPlusCommission", sql`j.salary_plus_commission`],
  ["description", sql`j.description`],
  ["routingTypeId", sql`j.applicant_routing_type_id`],
  ["routingTypeName", sql`art.name`],
  ["applicationEmail", sql`j.application_email`],
  ["applicationUrl", sql`j.application_url`],
  ["locations", locationsJson],
  ["categories", categoriesJson],
  ["revision", sql`j.revision`],
  ["aiUsedInSelection", sql`j.ai_used_in_selection`],
  ["existingVacancy", sql`j.existing_vacancy`],
  ["translations", sql`j.translations`],
  ["canadianExperience", sql`j.canadian_experience`],
  ["questions", sql`j.questions`],
  ["test", sql`j.test`],
  ["moderationStatus", sql`j.moderation_status`],
  ["moderationReason", sql`j.moderation_reason`],
  ["moderationAt", sql`j.moderation_at`],
  ["employerOntarioEmployees", sql`e.ontario_employees`],
  ["employerFederallyRegulated", sql`e.federally_regulated`],
  ["employerPostingRules", sql`e.posting_rules`],
  ["employerRevision", sql`e.revision`],
];

/** The job's JobRow as one JSON object, for snapshots stored in a write batch. */
export const JOB_COLUMNS_OBJECT = prerendered(jsonObject(JOB_COLUMNS));

export const JOB_FROM = prerendered(sql`
    FROM jobs j
    JOIN employers e ON e.id = j.employer_id
    LEFT JOIN position_types pt ON pt.id = j.position_type_id
    LEFT JOIN salary_types st ON st.id = j.salary_type_id
    LEFT JOIN applicant_routing_types art ON art.id = j.applicant_routing_type_id`);

const columnsOf = (columns: [keyof JobRow, SQL][]) =>
  sql.join(
    columns.map(([name, expression]) => sql`${expression} AS ${sql.identifier(name)}`),
    sql`, `,
  );

/** The employer's own read of a job: every column, and the digests a write compares (never shown, never in a snapshot). */
export const selectedColumns = prerendered(
  columnsOf([...JOB_COLUMNS, ["descriptionDigest", sql`j.description_digest`], ["frenchDescriptionDigest", sql`j.french_description_digest`]]),
);

/**
 * The columns as the public may see them: a place an employer created is theirs alone
 * (DESIGN 3, 6b), so its id, which only that employer's jobs carry, is shown as null.
 */
export const publicColumns = prerendered(
  columnsOf(JOB_COLUMNS.map(([name, expression]) => [name, name === "locations" ? locationsJsonOf(sql`CASE WHEN l.owner_employer_id IS NULL THEN l.id END`) : expression])),
);

