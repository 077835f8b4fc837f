import { createHash, randomUUID } from "node:crypto";

const DAY = 86_400;

// Twenty titles, so that a `q` such as "accountant" matches one job in twenty, as a real
// employer's search would, rather than every job or none.
export const TITLES = [
  "Senior Accountant", "Software Developer", "Registered Nurse", "Warehouse Associate", "Customer Service Representative",
  "Project Manager", "Electrician", "Administrative Assistant", "Truck Driver", "Sales Associate",
  "Data Analyst", "Line Cook", "Marketing Coordinator", "Mechanical Engineer", "Pharmacy Technician",
  "Heavy Equipment Operator", "Payroll Specialist", "Dental Hygienist", "Retail Store Manager", "Graphic Designer",
];

/** A realistic description of about `bytes` bytes, made only of allowed, already-clean HTML. */
export function descriptionOf(bytes) {
  const block =
    "<p><strong>About the role.</strong> You will join a growing team serving customers across Canada, " +
    "working with modern tools and a supportive manager.</p><ul><li>Competitive salary and benefits</li>" +
    "<li>Flexible hours and hybrid work</li><li>Training budget every year</li></ul>" +
    '<p>Apply on <a href="https://careers.example.com/apply" target="_blank">our careers site</a>.</p>';
  let html = "";
  while (html.length < bytes) html += block;
  return html.slice(0, html.lastIndexOf("</p>", bytes) + 4) || block;
}

/** SHA-256 hex of the key, as `hashApiKey` in src/auth/api-keys.ts computes it. */
const hashApiKey = (apiKey) => createHash("sha256").update(apiKey).digest("hex");

/** An employer row in D1 and its key in KV, as `npm run keys -- create` makes them. */
export async function createEmployer(db, kv, name, plan = "standard") {
  const row = await db
    .prepare("INSERT INTO employers (name, plan, created_at) VALUES (?, ?, ?) RETURNING id")
    .bind(name, plan, Math.floor(Date.now() / 1000))
    .first();
  const apiKey = `bench_${randomUUID()}`;
  await kv.put(hashApiKey(apiKey), JSON.stringify({ employerId: row.id }));
  return { employerId: row.id, apiKey, name };
}

/**
 * `count` jobs for one employer in one set-based statement (a recursive CTE), then one
 * location and one category link per job, so reads return realistic jobs. Runs the same
 * INSERTs the API does, so any trigger on jobs or its link tables fires as it would.
 */
export async function seedJobs(db, employerId, count, options = {}) {
  const {
    prefix = `E${employerId}-`,
    now = Math.floor(Date.now() / 1000),
    description = descriptionOf(2_000),
    status = "mixed",
    publishedDaysAgo = 0,
    closesInDays = 60,
    autoRefresh = false,
  } = options;
  const { locations, firstLocation, categories } = await db
    .prepare("SELECT (SELECT count(*) FROM locations) AS locations, (SELECT min(id) FROM locations) AS firstLocation, (SELECT count(*) FROM categories) AS categories")
    .first();
  const statusSql =
    status === "mixed" ? "CASE n % 10 WHEN 0 THEN 'draft' WHEN 1 THEN 'archived' ELSE 'active' END" : `'${status}'`;
  const titles = TITLES.map((t) => `'${t}'`).join(", ");
  const published = now - publishedDaysAgo * DAY;
  const before = await db.prepare("SELECT coalesce(max(id), 0) AS id FROM jobs").first();
  await db
    .prepare(
      `INSERT INTO jobs (employer_id, reference_id, title, publish_date, close_date, confidential, auto_refresh, status,
        position_type_id, salary_amount, salary_max_amount, salary_type_id, salary_plus_commission, description,
        applicant_routing_type_id, application_email, application_url, created_at, updated_at)
      WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
      SELECT ?2, ?3 || printf('%06d', n), json_extract(json_array(${titles}), '$[' || (n % ${TITLES.length}) || ']') || ' ' || n,
        ?4 - n, ?4 + ?5, n % 7 = 0, ?6, ${statusSql},
        n % 5 + 1, (40000 + n % 60000) * 10000, NULL, 1, n % 3 = 0, ?7,
        2, NULL, 'https://careers.example.com/jobs/' || n, ?4 - n, ?4 - n
      FROM seq`,
    )
    .bind(count, employerId, prefix, published, closesInDays * DAY, autoRefresh ? 1 : 0, description)
    .run();
  await db.batch([
    db
      .prepare(
        `INSERT INTO job_locations (job_id, location_id, position)
        SELECT id, ?2 + id % ?3, 0 FROM jobs WHERE employer_id = ?1 AND id > ?4`,
      )
      .bind(employerId, firstLocation, Math.min(locations, 500), before.id),
    db
      .prepare(
        `INSERT INTO job_categories (job_id, category_id, position)
        SELECT id, 1 + id % ?2, 0 FROM jobs WHERE employer_id = ?1 AND id > ?3`,
      )
      .bind(employerId, categories, before.id),
  ]);
  const range = await db
    .prepare("SELECT min(id) AS first, max(id) AS last FROM jobs WHERE employer_id = ? AND id > ?")
    .bind(employerId, before.id)
    .first();
  return { employerId, first: range.first, last: range.last, prefix };
}

/**
 * The database's size as D1 reports it with every result (`meta.size_after`), the figure its
 * 10 GB limit applies to. (`PRAGMA page_count` is not authorised on D1.)
 */
export async function databaseBytes(db) {
  return (await db.prepare("SELECT 1").run()).meta.size_after;
}
