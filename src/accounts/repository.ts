import { sql } from "drizzle-orm";
import type { Lang } from "../ui/i18n";
import { batch, first, run, type AccountsDatabase } from "./database/client";
import type { Role } from "./tokens";

// The one repository of the employer console's accounts (DESIGN 25, 25a): every read and write
// of ACCOUNTS_DB (people, invitations, sessions, sign-in links). Tokens and session ids come here already hashed. Each acceptance is one batch (one
// transaction): the token is marked used only while unused and unexpired, and the person and
// session are written only by the batch that marked it, so a token works once.

/** The signed-in person of a session. */
export interface SignedIn {
  sessionId: string;
  personId: number;
  employerId: number;
  email: string;
  role: Role;
  language: Lang;
}

export interface Invitation {
  employerId: number;
  email: string;
  role: Role;
  invitedBy: string;
}

/** A new session, to be written by the batch that uses a token. */
interface NewSession {
  id: string;
  expiresAt: number;
}

/** An invitation that may still be accepted, or undefined (unknown, used or expired). */
export function findOpenInvitation(db: AccountsDatabase, tokenHash: string, now: number): Promise<Invitation | undefined> {
  return first<Invitation>(
    db,
    sql`SELECT employer_id AS employerId, email, role, invited_by AS invitedBy FROM invitations WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}`,
  );
}

/**
 * One batch: the invitation used (while open), the person (made unless already one of the
 * employer), the session. Whether the session was written (the invitation was this batch's).
 */
export async function useInvitation(db: AccountsDatabase, input: { tokenHash: string; now: number; language: Lang; session: NewSession }): Promise<boolean> {
  const { tokenHash, now, language, session } = input;
  const results = await batch(db, [
    sql`UPDATE invitations SET used_at = ${now} WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}`,
    sql`INSERT INTO people (employer_id, email, role, language, created_at) SELECT employer_id, email, role, ${language}, ${now} FROM invitations WHERE token_hash = ${tokenHash} AND used_at = ${now} ON CONFLICT (employer_id, email) DO NOTHING`,
    sql`INSERT INTO sessions (id, person_id, created_at, last_used_at, expires_at)
        SELECT ${session.id}, p.id, ${now}, ${now}, ${session.expiresAt} FROM invitations i JOIN people p ON p.employer_id = i.employer_id AND p.email = i.email WHERE i.token_hash = ${tokenHash} AND i.used_at = ${now}`,
  ]);
  return results[2].meta.changes === 1;
}

/** Whether a sign-in link may still be used. */
export async function isSignInLinkOpen(db: AccountsDatabase, tokenHash: string, now: number): Promise<boolean> {
  const row = await first(db, sql`SELECT 1 AS open FROM sign_in_links WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}`);
  return row !== undefined;
}

/**
 * One batch: the link used (while open), then a session for the person of its address (the first
 * they joined: choosing one is for later). Whether the session was written.
 */
export async function useSignInLink(db: AccountsDatabase, input: { tokenHash: string; now: number; session: NewSession }): Promise<boolean> {
  const { tokenHash, now, session } = input;
  const results = await batch(db, [
    sql`UPDATE sign_in_links SET used_at = ${now} WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}`,
    sql`INSERT INTO sessions (id, person_id, created_at, last_used_at, expires_at)
        SELECT ${session.id}, (SELECT p.id FROM people p WHERE p.email = l.email ORDER BY p.id LIMIT 1), ${now}, ${now}, ${session.expiresAt}
        FROM sign_in_links l WHERE l.token_hash = ${tokenHash} AND l.used_at = ${now} AND EXISTS (SELECT 1 FROM people p WHERE p.email = l.email)`,
  ]);
  return results[1].meta.changes === 1;
}

/** The first person of an address (their language) and how many sign-in links it was sent since `since`; undefined when none. */
export function findSignInPerson(db: AccountsDatabase, email: string, since: number): Promise<{ language: Lang; recent: number } | undefined> {
  return first<{ language: Lang; recent: number }>(
    db,
    sql`SELECT language, (SELECT count(*) FROM sign_in_links WHERE email = ${email} AND created_at > ${since}) AS recent FROM people WHERE email = ${email} ORDER BY id LIMIT 1`,
  );
}

export async function recordSignInLink(db: AccountsDatabase, link: { tokenHash: string; email: string; createdAt: number; expiresAt: number }): Promise<void> {
  await run(db, sql`INSERT INTO sign_in_links (token_hash, email, created_at, expires_at) VALUES (${link.tokenHash}, ${link.email}, ${link.createdAt}, ${link.expiresAt})`);
}

/**
 * One round trip: marks the session used while it is valid (unexpired, used within `idleMs`),
 * then reads it with its person if it still is. Undefined when there is none valid.
 */
export async function touchSession(db: AccountsDatabase, sessionId: string, now: number, idleMs: number): Promise<SignedIn | undefined> {
  const valid = sql`s.id = ${sessionId} AND s.expires_at > ${now} AND s.last_used_at > ${now} - ${idleMs}`;
  const [, read] = await batch(db, [
    sql`UPDATE sessions AS s SET last_used_at = ${now} WHERE ${valid}`,
    sql`SELECT s.id AS sessionId, p.id AS personId, p.employer_id AS employerId, p.email, p.role, p.language FROM sessions s JOIN people p ON p.id = s.person_id WHERE ${valid}`,
  ]);
  return (read.results[0] as SignedIn | undefined) ?? undefined;
}

/** Ends one session, or (`everywhere`) every session of its person. */
export async function endSessions(db: AccountsDatabase, input: { sessionId: string; personId: number; everywhere: boolean }): Promise<void> {
  await run(db, input.everywhere ? sql`DELETE FROM sessions WHERE person_id = ${input.personId}` : sql`DELETE FROM sessions WHERE id = ${input.sessionId}`);
}

/** The person's console language, remembered. */
export async function setLanguage(db: AccountsDatabase, personId: number, language: Lang): Promise<void> {
  await run(db, sql`UPDATE people SET language = ${language} WHERE id = ${personId}`);
}

/** An employer's admins, oldest first, at most `limit` (people_employer_email's employer prefix). */
export function findAdmins(db: AccountsDatabase, employerId: number, limit: number): Promise<{ email: string; language: Lang }[]> {
  return db.all(sql`SELECT email, language FROM people WHERE employer_id = ${employerId} AND role = 'admin' ORDER BY id LIMIT ${limit}`);
}
