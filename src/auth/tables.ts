import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// DESIGN 22: which API keys (by the SHA-256 of the key, as KV names their records) belong to which
// employer of this shard. Authentication never reads it (KV does); moving an employer does, to
// rewrite the shard in each of its keys' records, and it moves with the employer. Written by
// `npm run keys` when a key is made, removed when it is revoked. Keys made before this table are
// found by listing KV (docs/scaling.md, "Moving an employer").
export const apiKeys = sqliteTable(
  "api_keys",
  {
    hash: text("hash").primaryKey(),
    /** The employer the key's record names: the live employer, or its test space for a jpa_test_ key. */
    employerId: integer("employer_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("api_keys_employer_idx").on(t.employerId)],
);
