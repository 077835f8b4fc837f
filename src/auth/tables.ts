import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// DESIGN 22: which API keys (by the SHA-256 of the key, as KV names their records) belong to which
// employer of this shard. Authentication never reads it (KV does); moving an employer does, to
// rewrite the shard in each of its keys' records, and it moves with the employer. Written by
// `npm run keys` and the console (DESIGN 25) when a key is made, removed when it is revoked. Keys
// made before this table are found by listing KV (docs/scaling.md, "Moving an employer").
export const apiKeys = sqliteTable(
  "api_keys",
  {
    hash: text("hash").primaryKey(),
    /** The employer the key's record names: the live employer, or its test space for a jpa_test_ key. */
    employerId: integer("employer_id").notNull(),
    createdAt: integer("created_at").notNull(),
    /** The key's first 12 characters, kept when it is made (null: made before they were kept). */
    prefix: text("prefix"),
    /** The start of the last hour the key was used in (ms; at most one write an hour, after the answer). */
    lastUsedAt: integer("last_used_at"),
    /** A rolled key's end (ms): it works until then (its KV entry expires), and is no longer listed after. */
    expiresAt: integer("expires_at"),
  },
  // One employer's prefixes never repeat (its test space's neither), so a prefix names one key.
  (t) => [index("api_keys_employer_idx").on(t.employerId), uniqueIndex("api_keys_employer_prefix").on(t.employerId, t.prefix)],
);
