import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// DESIGN 25: the employer console's people, invitations and sessions live in a D1 database of
// their own (binding ACCOUNTS_DB, migrations in drizzle/accounts/, generated from this file by
// drizzle/accounts.config.ts): global and small, never an employer shard (a person's employer is
// found in its shard as an API key's is). Only src/accounts reaches it. Tokens and session ids
// are stored only as SHA-256 hashes (hex). Times are ms since the epoch (UTC).

/** A person: an email address (lowercased) with a role in one employer. */
export const people = sqliteTable(
  "people",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    employerId: integer("employer_id").notNull(),
    email: text("email").notNull(),
    /** admin | recruiter. */
    role: text("role").notNull(),
    /** en | fr: the console's language for this person. */
    language: text("language").notNull().default("en"),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [uniqueIndex("people_employer_email").on(table.employerId, table.email), index("people_email").on(table.email)],
);

/** An invitation: single use, 7 days; the token is only in the link. */
export const invitations = sqliteTable(
  "invitations",
  {
    tokenHash: text("token_hash").primaryKey(),
    employerId: integer("employer_id").notNull(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    /** Who invited: a person's email, or `operator` (the command line). */
    invitedBy: text("invited_by").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (table) => [index("invitations_employer").on(table.employerId)],
);

/** A signed-in browser: the cookie's value is only in the cookie; `id` is its SHA-256. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    personId: integer("person_id").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at").notNull(),
    /** 30 days after sign-in at the latest (the idle limit is checked against lastUsedAt). */
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [index("sessions_person").on(table.personId)],
);

/** An emailed sign-in link: single use, 15 minutes; also what limits sign-in emails per address. */
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (table) => [index("sign_in_links_email").on(table.email, table.createdAt)],
);

/**
 * DESIGN 26, 26a: every act of the operator's console — who (the Access token's email), what, on
 * what, why, the note, when — kept 7 years (src/accounts/audit.ts). An act written in ACCOUNTS_DB
 * writes its record in the same batch (`done` at once); an act written elsewhere (an employer
 * shard) is recorded `pending` before it is done and marked `done` or `failed` after, so no act
 * happens without its record (docs/operator.md: "The audit").
 */
export const audit = sqliteTable(
  "audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    operator: text("operator").notNull(),
    /** What was done: `employer.create`, `employer.plan`, `employer.invite`, … */
    action: text("action").notNull(),
    /** On what: `employer:12`, `job:34`, … */
    target: text("target").notNull(),
    reason: text("reason"),
    note: text("note"),
    /** pending | done | failed. */
    outcome: text("outcome").notNull(),
  },
  (table) => [index("audit_at").on(table.at)],
);

/**
 * DESIGN 25: a person's passkey (a WebAuthn credential). The private key stays on the person's
 * device; this is what verifies its signatures. `id` names it in the console's addresses.
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    personId: integer("person_id").notNull(),
    /** The credential's id, base64url, as the browser names it when signing in. */
    credentialId: text("credential_id").notNull(),
    /** The credential's COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The authenticator's signature counter as last seen (0 for authenticators that keep none). */
    counter: integer("counter").notNull(),
    /** JSON array of the browser's transport hints (internal, hybrid, usb, …), handed back when adding another. */
    transports: text("transports").notNull(),
    /** The person's name for it (e.g. "Work laptop"). */
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (table) => [uniqueIndex("passkeys_credential").on(table.credentialId), index("passkeys_person").on(table.personId)],
);

/**
 * A WebAuthn challenge the console handed out: single use, 5 minutes. `person_id` is the person
 * adding a passkey; null for a sign-in (no one is named before it).
 */
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    challengeHash: text("challenge_hash").primaryKey(),
    /** register | sign-in. */
    purpose: text("purpose").notNull(),
    personId: integer("person_id"),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [index("passkey_challenges_expiry").on(table.expiresAt)],
);
