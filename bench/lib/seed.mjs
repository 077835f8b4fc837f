import { createHash, randomUUID } from "node:crypto";

const DAY = 86_400;

// Forty titles, two of them with "accountant", so that a `q` such as "accountant" matches one
// job in twenty, as a real search would, rather than every job or none, in every status (a job's
// title is drawn by the scramble of its number, its status by the number itself: drawn both by the
// number, every accountant of a mixed pool was a draft). No word of one is a prefix of a word of
// another's (the board's search matches prefixes).
export const TITLES = [
  "Senior Accountant", "Software Developer", "Registered Nurse", "Warehouse Associate", "Customer Service Representative",
  "Project Manager", "Electrician", "Administrative Assistant", "Truck Driver", "Sales Associate",
  "Data Analyst", "Line Cook", "Marketing Coordinator", "Mechanical Engineer", "Pharmacy Technician",
  "Heavy Equipment Operator", "Payroll Specialist", "Dental Hygienist", "Retail Store Manager", "Graphic Designer",
  "Staff Accountant", "Early Childhood Educator", "Plumber", "Forklift Operator", "Personal Support Worker",
  "Civil Engineer", "Bank Teller", "Welder", "Physiotherapist", "Network Administrator",
  "Carpenter", "Human Resources Generalist", "Automotive Technician", "Barista", "Social Worker",
  "Security Guard", "Licensed Practical Nurse", "Construction Labourer", "Bookkeeper", "Veterinary Technician",
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

/** The digest of a raw description, as `inputDigest` in src/description/digest.ts computes it (cleaner version 1). */
const inputDigest = (raw) => createHash("sha256").update(`1\n${raw}`).digest("hex");

/** SHA-256 hex of the key, as `hashApiKey` in src/auth/api-keys.ts computes it. */
const hashApiKey = (apiKey) => createHash("sha256").update(apiKey).digest("hex");

/** An employer row in D1 and its key in KV, as `npm run keys -- create` makes them. */
export async function createEmployer(db, kv, name, plan = "standard", shard = 0) {
  const row = await db
    .prepare("INSERT INTO employers (name, plan, created_at) VALUES (?, ?, ?) RETURNING id")
    .bind(name, plan, Math.floor(Date.now() / 1000))
    .first();
  const apiKey = `bench_${randomUUID()}`;
  // DESIGN 22: the key names its shard, and the shard lists the key (a move updates it).
  await db.prepare("INSERT INTO api_keys (hash, employer_id, created_at) VALUES (?, ?, ?)").bind(hashApiKey(apiKey), row.id, Date.now()).run();
  await kv.put(hashApiKey(apiKey), JSON.stringify({ employerId: row.id, ...(shard && { shard }) }));
  return { employerId: row.id, apiKey, name, shard };
}

/**
 * Slots to draw a job's place from: every public place of the gazetteer (ids 1..609 and
 * 1000001.., provinces aside) at least once, the larger ones more often (one slot per 50 000
 * people), so that, as on a real board, Toronto has thousands of jobs and a hamlet a few.
 */
async function placeSlots(db) {
  const { results } = await db
    .prepare("SELECT id, coalesce(population, 0) AS population FROM locations WHERE owner_employer_id IS NULL AND type <> 'Province' ORDER BY id")
    .all();
  return results.flatMap((p) => Array(Math.max(1, Math.round(p.population / 50_000))).fill(p.id));
}

/**
 * `count` jobs for one employer in one set-based statement (a recursive CTE), then one
 * location (drawn from the gazetteer's places, weighted by population) and one category link
 * per job, so reads return realistic jobs. Salaries as employers post them: none for one job in
 * seven, hourly (CA$16–65) for about a third, yearly (CA$35 000–160 000; from CA$65 000, half
 * with a range, whose top stays above what the batch bench's updates set, CA$61 000) for the
 * rest. Runs the same INSERTs the API does, so any trigger on jobs or its link tables fires as
 * it would.
 */
export async function seedJobs(db, employerId, count, options = {}) {
  const {
    prefix = `E${employerId}-`,
    now = Math.floor(Date.now() / 1000),
    description = descriptionOf(2_000),
    // The raw input `description` is the API's cleaning of: its digest is stored with it, as the
    // API stores it (inputDigest, src/description/digest.ts). Without it, no digest: as a job
    // stored before digests were kept.
    sentAs,
    status = "mixed",
    publishedDaysAgo = 0,
    closesInDays = 60,
    autoRefresh = false,
  } = options;
  const { categories } = await db.prepare("SELECT count(*) AS categories FROM categories").first();
  const slots = await placeSlots(db);
  const statusSql =
    status === "mixed" ? "CASE n % 10 WHEN 0 THEN 'draft' WHEN 1 THEN 'archived' ELSE 'active' END" : `'${status}'`;
  const titles = TITLES.map((t) => `'${t}'`).join(", ");
  const published = now - publishedDaysAgo * DAY;
  const before = await db.prepare("SELECT coalesce(max(id), 0) AS id FROM jobs").first();
  // h: a scramble of n, so that salary, title and place do not move in step.
  await db
    .prepare(
      `INSERT INTO jobs (employer_id, reference_id, title, publish_date, close_date, confidential, auto_refresh, status,
        position_type_id, salary_amount, salary_max_amount, salary_type_id, salary_plus_commission, description,
        applicant_routing_type_id, application_email, application_url, created_at, updated_at, description_digest)
      WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1),
        scrambled(n, h) AS (SELECT n, (n * 2654435761) % 1000003 FROM seq)
      SELECT ?2, ?3 || printf('%06d', n), json_extract(json_array(${titles}), '$[' || (h % ${TITLES.length}) || ']'),
        ?4 - n, ?4 + ?5, n % 7 = 0, ?6, ${statusSql},
        n % 5 + 1,
        CASE WHEN h % 7 = 0 THEN NULL
          WHEN h % 3 = 0 THEN (16 + h % 50) * 10000 + (h % 4) * 2500
          ELSE (35000 + (h % 126) * 1000) * 10000 END,
        CASE WHEN h % 7 = 0 OR h % 3 = 0 OR h % 2 = 0 OR h % 126 < 30 THEN NULL ELSE (35000 + (h % 126) * 1000 + 5000 + (h % 4) * 5000) * 10000 END,
        CASE WHEN h % 7 = 0 THEN NULL WHEN h % 3 = 0 THEN 5 ELSE 1 END,
        CASE WHEN h % 7 = 0 THEN NULL ELSE n % 11 = 0 END, ?7,
        2, NULL, 'https://careers.example.com/jobs/' || n, ?4 - n, ?4 - n, ?8
      FROM scrambled`,
    )
    .bind(count, employerId, prefix, published, closesInDays * DAY, autoRefresh ? 1 : 0, description, sentAs === undefined ? null : inputDigest(sentAs))
    .run();
  await db.batch([
    db
      .prepare(
        `INSERT INTO job_locations (job_id, location_id, position)
        WITH slots AS MATERIALIZED (SELECT key AS k, value AS place FROM json_each(?3))
        SELECT j.id, s.place, 0 FROM jobs j JOIN slots s ON s.k = (j.id * 40503) % ?4
        WHERE j.employer_id = ?1 AND j.id > ?2`,
      )
      .bind(employerId, before.id, JSON.stringify(slots), slots.length),
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
