import { sql } from "drizzle-orm";
import type { Lang } from "../ui/i18n";
import { all, batch, first, run, type AccountsDatabase } from "./database/client";
import type { Role } from "./tokens";

// The one repository of the employer console's accounts (DESIGN 25, 25a): every read and write
// of ACCOUNTS_DB (people, invitations, sessions, sign-in links, passkeys and their challenges). Tokens and session ids come here already hashed. Each acceptance is one batch (one
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
  /** How many employers the person's address belongs to (more than one: the console offers to switch). */
  employers: number;
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
 * they joined: one of several employers is chosen once signed in), then how many employers the
 * address belongs to. That number, or undefined when no session was written.
 */
export async function useSignInLink(db: AccountsDatabase, input: { tokenHash: string; now: number; session: NewSession }): Promise<number | undefined> {
  const { tokenHash, now, session } = input;
  const results = await batch(db, [
    sql`UPDATE sign_in_links SET used_at = ${now} WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}`,
    sql`INSERT INTO sessions (id, person_id, created_at, last_used_at, expires_at)
        SELECT ${session.id}, (SELECT p.id FROM people p WHERE p.email = l.email ORDER BY p.id LIMIT 1), ${now}, ${now}, ${session.expiresAt}
        FROM sign_in_links l WHERE l.token_hash = ${tokenHash} AND l.used_at = ${now} AND EXISTS (SELECT 1 FROM people p WHERE p.email = l.email)`,
    sql`SELECT count(*) AS employers FROM people WHERE email = (SELECT email FROM sign_in_links WHERE token_hash = ${tokenHash})`,
  ]);
  return results[1].meta.changes === 1 ? (results[2].results[0] as { employers: number }).employers : undefined;
}

/** The employers an address belongs to (one person each), in the order it joined them. */
export function findEmployersOf(db: AccountsDatabase, email: string): Promise<{ employerId: number }[]> {
  return all<{ employerId: number }>(db, sql`SELECT employer_id AS employerId FROM people WHERE email = ${email} ORDER BY id`);
}

/**
 * One batch: a session for the person of the same address in `employerId`, made from a valid
 * session (ending when it would have: a switch is no new sign-in), then that session ended, only
 * if the new one was written. Whether it was: not when the address has no person there.
 */
export async function switchSession(db: AccountsDatabase, input: { sessionId: string; employerId: number; now: number; idleMs: number; session: { id: string } }): Promise<boolean> {
  const { sessionId, employerId, now, idleMs, session } = input;
  const [made] = await batch(db, [
    sql`INSERT INTO sessions (id, person_id, created_at, last_used_at, expires_at)
        SELECT ${session.id}, p.id, ${now}, ${now}, s.expires_at FROM sessions s JOIN people me ON me.id = s.person_id JOIN people p ON p.email = me.email AND p.employer_id = ${employerId}
        WHERE s.id = ${sessionId} AND s.expires_at > ${now} AND s.last_used_at > ${now} - ${idleMs}`,
    sql`DELETE FROM sessions WHERE id = ${sessionId} AND EXISTS (SELECT 1 FROM sessions WHERE id = ${session.id})`,
  ]);
  return made.meta.changes === 1;
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
 * The signed-in person of a valid session (unexpired, used within `idleMs`), with when it was
 * last marked used and how many employers the person's address belongs to; a read only, one
 * statement. Undefined when there is none valid.
 */
export async function findSession(db: AccountsDatabase, sessionId: string, now: number, idleMs: number): Promise<(SignedIn & { lastUsedAt: number }) | undefined> {
  return first<SignedIn & { lastUsedAt: number }>(
    db,
    sql`SELECT s.id AS sessionId, p.id AS personId, p.employer_id AS employerId, p.email, p.role, p.language, s.last_used_at AS lastUsedAt,
          (SELECT count(*) FROM people o WHERE o.email = p.email) AS employers
        FROM sessions s JOIN people p ON p.id = s.person_id WHERE s.id = ${sessionId} AND s.expires_at > ${now} AND s.last_used_at > ${now} - ${idleMs}`,
  );
}

/** Marks a session used now, while it still is valid. */
export async function touchSession(db: AccountsDatabase, sessionId: string, now: number, idleMs: number): Promise<void> {
  await run(db, sql`UPDATE sessions SET last_used_at = ${now} WHERE id = ${sessionId} AND expires_at > ${now} AND last_used_at > ${now} - ${idleMs}`);
}

/** Ends one session, or (`everywhere`) every session of its person. */
export async function endSessions(db: AccountsDatabase, input: { sessionId: string; personId: number; everywhere: boolean }): Promise<void> {
  await run(db, input.everywhere ? sql`DELETE FROM sessions WHERE person_id = ${input.personId}` : sql`DELETE FROM sessions WHERE id = ${input.sessionId}`);
}

/** The person's console language, remembered. */
export async function setLanguage(db: AccountsDatabase, personId: number, language: Lang): Promise<void> {
  await run(db, sql`UPDATE people SET language = ${language} WHERE id = ${personId}`);
}

/** A person of an employer, as the console lists them. */
export interface Person {
  id: number;
  email: string;
  role: Role;
  createdAt: number;
}

/** An invitation not yet accepted and still open. */
export interface PendingInvitation {
  email: string;
  role: Role;
  invitedBy: string;
  expiresAt: number;
}

/** The employer's people and its open invitations, in one round trip. */
export async function findPeople(db: AccountsDatabase, employerId: number, now: number): Promise<{ people: Person[]; invitations: PendingInvitation[] }> {
  const [people, invitations] = await batch(db, [
    sql`SELECT id, email, role, created_at AS createdAt FROM people WHERE employer_id = ${employerId} ORDER BY email, id`,
    sql`SELECT email, role, invited_by AS invitedBy, expires_at AS expiresAt FROM invitations
        WHERE employer_id = ${employerId} AND used_at IS NULL AND expires_at > ${now} ORDER BY created_at DESC`,
  ]);
  return { people: people.results as unknown as Person[], invitations: invitations.results as unknown as PendingInvitation[] };
}

/** An invitation, unless the address is one of the employer's people already; whether it was recorded. */
export async function recordInvitation(db: AccountsDatabase, invitation: Invitation & { tokenHash: string; createdAt: number; expiresAt: number }): Promise<boolean> {
  const { tokenHash, employerId, email, role, invitedBy, createdAt, expiresAt } = invitation;
  const result = await run(
    db,
    sql`INSERT INTO invitations (token_hash, employer_id, email, role, invited_by, created_at, expires_at)
        SELECT ${tokenHash}, ${employerId}, ${email}, ${role}, ${invitedBy}, ${createdAt}, ${expiresAt}
        WHERE NOT EXISTS (SELECT 1 FROM people WHERE employer_id = ${employerId} AND email = ${email})`,
  );
  return result.meta.changes === 1;
}

/** What became of a change to a person: done, no such person of the employer, or refused as it would leave no admin. */
export type PersonChange = "done" | "not-found" | "last-admin";

/**
 * The condition, on the person's row `p`, under which it may stop being an admin: it is not one,
 * or another admin of the employer stays. Inside the writing statement, so that two admins
 * demoting or removing each other at once cannot both succeed (D1 runs one write at a time).
 */
const anotherAdminStays = (personId: number, employerId: number) =>
  sql`(p.role <> 'admin' OR EXISTS (SELECT 1 FROM people o WHERE o.employer_id = ${employerId} AND o.role = 'admin' AND o.id <> ${personId}))`;

/** One batch: the role changed (unless that leaves no admin), then whether the person is the employer's. */
export async function updateRole(db: AccountsDatabase, input: { employerId: number; personId: number; role: Role }): Promise<PersonChange> {
  const { employerId, personId, role } = input;
  const [updated, found] = await batch(db, [
    sql`UPDATE people AS p SET role = ${role} WHERE p.id = ${personId} AND p.employer_id = ${employerId} AND (${role} = 'admin' OR ${anotherAdminStays(personId, employerId)})`,
    sql`SELECT 1 AS found FROM people WHERE id = ${personId} AND employer_id = ${employerId}`,
  ]);
  return updated.meta.changes === 1 ? "done" : found.results.length ? "last-admin" : "not-found";
}

/** One batch: the person's sessions ended, their passkeys gone and the person removed (unless that leaves no admin), then whether they are still there. */
export async function deletePerson(db: AccountsDatabase, input: { employerId: number; personId: number }): Promise<PersonChange> {
  const { employerId, personId } = input;
  const removable = sql`p.id = ${personId} AND p.employer_id = ${employerId} AND ${anotherAdminStays(personId, employerId)}`;
  const [, , deleted, found] = await batch(db, [
    sql`DELETE FROM sessions WHERE person_id IN (SELECT p.id FROM people p WHERE ${removable})`,
    sql`DELETE FROM passkeys WHERE person_id IN (SELECT p.id FROM people p WHERE ${removable})`,
    sql`DELETE FROM people AS p WHERE ${removable}`,
    sql`SELECT 1 AS found FROM people WHERE id = ${personId} AND employer_id = ${employerId}`,
  ]);
  return deleted.meta.changes === 1 ? "done" : found.results.length ? "last-admin" : "not-found";
}


/** A passkey as its person sees it listed, with what the browser needs to tell it apart when adding another. */
export interface PasskeyOfPerson {
  id: number;
  name: string;
  credentialId: string;
  transports: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A passkey of a person who still exists: what verifies its signature. */
export interface StoredPasskey {
  id: number;
  personId: number;
  publicKey: string;
  counter: number;
  transports: string;
}

/** The person's passkeys, oldest first. */
export function passkeysOf(db: AccountsDatabase, personId: number): Promise<PasskeyOfPerson[]> {
  return all<PasskeyOfPerson>(
    db,
    sql`SELECT id, name, credential_id AS credentialId, transports, created_at AS createdAt, last_used_at AS lastUsedAt FROM passkeys WHERE person_id = ${personId} ORDER BY id`,
  );
}

/** Stores a verified passkey; false when its credential is stored already (for anyone). */
export async function storePasskey(
  db: AccountsDatabase,
  passkey: { personId: number; credentialId: string; publicKey: string; counter: number; transports: string; name: string; createdAt: number },
): Promise<boolean> {
  const { personId, credentialId, publicKey, counter, transports, name, createdAt } = passkey;
  const result = await run(
    db,
    sql`INSERT INTO passkeys (person_id, credential_id, public_key, counter, transports, name, created_at)
        VALUES (${personId}, ${credentialId}, ${publicKey}, ${counter}, ${transports}, ${name}, ${createdAt}) ON CONFLICT (credential_id) DO NOTHING`,
  );
  return result.meta.changes === 1;
}

/** Removes one of the person's passkeys; false when they have none of that id. */
export async function deletePasskey(db: AccountsDatabase, personId: number, id: number): Promise<boolean> {
  const result = await run(db, sql`DELETE FROM passkeys WHERE id = ${id} AND person_id = ${personId}`);
  return result.meta.changes === 1;
}

/** The passkey of a credential id, while its person exists. */
export function findPasskey(db: AccountsDatabase, credentialId: string): Promise<StoredPasskey | undefined> {
  return first<StoredPasskey>(
    db,
    sql`SELECT k.id, k.person_id AS personId, k.public_key AS publicKey, k.counter, k.transports FROM passkeys k JOIN people p ON p.id = k.person_id WHERE k.credential_id = ${credentialId}`,
  );
}

/**
 * One batch: the passkey's counter moved on (only from the value it was verified against, so two
 * sign-ins racing on one counter make one session), then a session for its person. Whether the
 * session was written.
 */
export async function useWithPasskey(db: AccountsDatabase, input: { id: number; counterWas: number; counter: number; now: number; session: NewSession }): Promise<boolean> {
  const { id, counterWas, counter, now, session } = input;
  const results = await batch(db, [
    sql`UPDATE passkeys SET counter = ${counter}, last_used_at = ${now} WHERE id = ${id} AND counter = ${counterWas}`,
    sql`INSERT INTO sessions (id, person_id, created_at, last_used_at, expires_at)
        SELECT ${session.id}, k.person_id, ${now}, ${now}, ${session.expiresAt} FROM passkeys k JOIN people p ON p.id = k.person_id
        WHERE k.id = ${id} AND k.counter = ${counter} AND k.last_used_at = ${now}`,
  ]);
  return results[1].meta.changes === 1;
}

/** One batch: challenges past their time go, this one is kept until `expiresAt`. */
export async function recordChallenge(db: AccountsDatabase, challenge: { hash: string; purpose: "register" | "sign-in"; personId: number | null; now: number; expiresAt: number }): Promise<void> {
  await batch(db, [
    sql`DELETE FROM passkey_challenges WHERE expires_at <= ${challenge.now}`,
    sql`INSERT INTO passkey_challenges (challenge_hash, purpose, person_id, expires_at) VALUES (${challenge.hash}, ${challenge.purpose}, ${challenge.personId}, ${challenge.expiresAt})`,
  ]);
}

/** Uses a challenge up: true once, while it is unexpired and was handed out for this purpose and person. */
export async function useChallenge(db: AccountsDatabase, challenge: { hash: string; purpose: "register" | "sign-in"; personId: number | null; now: number }): Promise<boolean> {
  const result = await run(
    db,
    sql`DELETE FROM passkey_challenges WHERE challenge_hash = ${challenge.hash} AND purpose = ${challenge.purpose} AND person_id IS ${challenge.personId} AND expires_at > ${challenge.now}`,
  );
  return result.meta.changes === 1;
}

/** An employer's admins, oldest first, at most `limit` (people_employer_email's employer prefix). */
export function findAdmins(db: AccountsDatabase, employerId: number, limit: number): Promise<{ email: string; language: Lang }[]> {
  return db.all(sql`SELECT email, language FROM people WHERE employer_id = ${employerId} AND role = 'admin' ORDER BY id LIMIT ${limit}`);
}
