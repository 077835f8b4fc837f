import { env, exports } from "cloudflare:workers";
import { hashApiKey, TEST_KEY_PREFIX } from "../../src/auth/api-keys";
import { CREATE_TEST_SPACE_SQL, TEST_SPACE_ID_SQL } from "../../src/employers/test-space";
import { assertMatchesContract } from "./contract";

export const BASE = "https://api.test";
export const API = `${BASE}/api/v1.1`;

let employerCounter = 0;

export interface TestEmployer {
  employerId: number;
  apiKey: string;
  name: string;
  /** DESIGN 22: the shard it lives in. */
  shard: number;
}

/** Shard k's database, as the Worker binds it (DB, DB_1). */
export const shardDb = (shard: number) => (shard === 0 ? env.DB : env[`DB_${shard}`]!);

/** The key's record in KV, and its hash in its shard's list of keys (DESIGN 22), as `npm run keys` writes them. */
async function putKey(apiKey: string, shard: number, record: { employerId: number; [member: string]: unknown }) {
  const hash = await hashApiKey(apiKey);
  await shardDb(shard).prepare("INSERT INTO api_keys (hash, employer_id, created_at) VALUES (?, ?, ?)").bind(hash, record.employerId, Date.now()).run();
  await env.API_KEYS.put(hash, JSON.stringify(record));
}

/** A real employer row in its shard (0 unless told) and its hashed key in KV, as `npm run keys -- create` makes them. */
export async function createEmployer(
  options: { name?: string; plan?: "standard" | "unlimited"; shard?: number } = {},
): Promise<TestEmployer> {
  const name = options.name ?? `Employer ${++employerCounter}`;
  const shard = options.shard ?? 0;
  const row = await shardDb(shard).prepare("INSERT INTO employers (name, plan, created_at) VALUES (?, ?, ?) RETURNING id")
    .bind(name, options.plan ?? "standard", Math.floor(Date.now() / 1000))
    .first<{ id: number }>();
  const employerId = row!.id;
  const apiKey = `test_${crypto.randomUUID()}`;
  await putKey(apiKey, shard, shard ? { employerId, shard } : { employerId });
  return { employerId, apiKey, name, shard };
}

/**
 * A jpa_test_ key of `employer`'s test space (DESIGN 21), made as `npm run keys -- create --test
 * --employer N` makes it; `employerId` is the test space's own row.
 */
export async function createTestKey(employer: TestEmployer): Promise<TestEmployer> {
  const db = shardDb(employer.shard);
  await db.prepare(CREATE_TEST_SPACE_SQL).bind(employer.employerId).run();
  const space = await db.prepare(TEST_SPACE_ID_SQL).bind(employer.employerId).first<{ id: number }>();
  const apiKey = `${TEST_KEY_PREFIX}${crypto.randomUUID()}`;
  const record = { employerId: space!.id, test: true, ...(employer.shard && { shard: employer.shard }) };
  await putKey(apiKey, employer.shard, record);
  return { employerId: space!.id, apiKey, name: employer.name, shard: employer.shard };
}

/**
 * Drives the Worker over HTTP exactly as a client would, and checks the response against the
 * OpenAPI document (status documented, body matching its schema): a mismatch fails the test.
 * `undocumented: true` skips that check, only for requests that break the document on purpose
 * (say, a body on an operation that documents none).
 */
export async function request(
  path: string,
  init: RequestInit & { json?: unknown; apiKey?: string; undocumented?: boolean } = {},
): Promise<Response> {
  const { json, apiKey, undocumented, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (apiKey) headers.set("API-Key", apiKey);
  if (json !== undefined) headers.set("Content-Type", "application/json");
  const url = path.startsWith("http") ? path : `${path.startsWith("/api") ? BASE : API}${path}`;
  const req = new Request(url, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  const res = await exports.default.fetch(req);
  if (!undocumented) await assertMatchesContract(req, res);
  return res;
}

/** Asserts nothing itself; returns the parsed problem body for the caller to check. */
export async function problemOf(res: Response) {
  return (await res.json()) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    errors?: { field: string; message: string; rule?: string; law?: string }[];
    requestId: string;
    [member: string]: unknown;
  };
}
