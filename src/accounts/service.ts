import type { Env } from "../env";
import { shardDatabase, shardNumbers } from "../shards/bindings";
import type { Lang } from "../ui/i18n";
import { signInEmail } from "./email";
import { ABSOLUTE_MS, newSession } from "./session";
import { emailKey, hashToken, newToken, SIGN_IN_LINK_MS, type Role } from "./tokens";

// DESIGN 25, 25a: invitations and sign-in links. Each acceptance is one ACCOUNTS_DB batch (one
// transaction): the token is marked used only while unused and unexpired, and the person and
// session are written only by the batch that marked it, so a token works once.

/** At most this many sign-in emails per address per hour (counted in sign_in_links). */
export const SIGN_IN_EMAILS_PER_HOUR = 5;

/** The employer's name, from the shard it lives in (ids are unique across shards; a moved one left a tombstone). */
export async function employerName(env: Env, employerId: number): Promise<string | undefined> {
  const names = await Promise.all(
    shardNumbers(env).map((shard) =>
      shardDatabase(env, shard).prepare("SELECT name FROM employers WHERE id = ? AND moved_to IS NULL AND test_of IS NULL").bind(employerId).first<{ name: string }>(),
    ),
  );
  return names.find(Boolean)?.name;
}

export interface Invitation {
  employerId: number;
  email: string;
  role: Role;
  invitedBy: string;
}

/** An invitation that may still be accepted, or undefined (unknown, used or expired). */
export async function openInvitation(env: Env, token: string, now = Date.now()): Promise<Invitation | undefined> {
  const row = await env.ACCOUNTS_DB.prepare("SELECT employer_id AS employerId, email, role, invited_by AS invitedBy FROM invitations WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?")
    .bind(await hashToken(token), now)
    .first<Invitation>();
  return row ?? undefined;
}

/** Accepts: the person (made unless already one of the employer), the invitation used, a session. Its cookie, or undefined. */
export async function acceptInvitation(env: Env, token: string, language: Lang, now = Date.now()): Promise<string | undefined> {
  const d1 = env.ACCOUNTS_DB;
  const hash = await hashToken(token);
  const session = await newSession();
  const results = await d1.batch([
    d1.prepare("UPDATE invitations SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2").bind(hash, now),
    d1.prepare(
      "INSERT INTO people (employer_id, email, role, language, created_at) SELECT employer_id, email, role, ?3, ?2 FROM invitations WHERE token_hash = ?1 AND used_at = ?2 ON CONFLICT (employer_id, email) DO NOTHING",
    ).bind(hash, now, language),
    d1.prepare(
      `INSERT INTO sessions (id, person_id, created_at, last_used_at, expires_at)
       SELECT ?3, p.id, ?2, ?2, ?4 FROM invitations i JOIN people p ON p.employer_id = i.employer_id AND p.email = i.email WHERE i.token_hash = ?1 AND i.used_at = ?2`,
    ).bind(hash, now, session.id, now + ABSOLUTE_MS),
  ]);
  return results[2].meta.changes === 1 ? session.cookie : undefined;
}

/** Whether a sign-in link may still be used. */
export async function openSignInLink(env: Env, token: string, now = Date.now()): Promise<boolean> {
  const row = await env.ACCOUNTS_DB.prepare("SELECT 1 AS open FROM sign_in_links WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?").bind(await hashToken(token), now).first();
  return row !== null;
}

/** Signs in by link: used once, within 15 minutes; the session's cookie, or undefined. */
export async function signInWithLink(env: Env, token: string, now = Date.now()): Promise<string | undefined> {
  const d1 = env.ACCOUNTS_DB;
  const hash = await hashToken(token);
  const session = await newSession();
  // A person of several employers signs in to the first they joined (choosing one is for later).
  const results = await d1.batch([
    d1.prepare("UPDATE sign_in_links SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2").bind(hash, now),
    d1.prepare(
      `INSERT INTO sessions (id, person_id, created_at, last_used_at, expires_at)
       SELECT ?3, (SELECT p.id FROM people p WHERE p.email = l.email ORDER BY p.id LIMIT 1), ?2, ?2, ?4
       FROM sign_in_links l WHERE l.token_hash = ?1 AND l.used_at = ?2 AND EXISTS (SELECT 1 FROM people p WHERE p.email = l.email)`,
    ).bind(hash, now, session.id, now + ABSOLUTE_MS),
  ]);
  return results[1].meta.changes === 1 ? session.cookie : undefined;
}

/**
 * DESIGN 25a: a sign-in email for a known address, at most 5 an hour; nothing for an unknown one.
 * The caller answers the same either way. Returns the send to wait for (after the answer), if any.
 */
export async function requestSignIn(env: Env, input: { email: string; origin: string; next?: string }, now = Date.now()): Promise<(() => Promise<void>) | undefined> {
  const d1 = env.ACCOUNTS_DB;
  const email = emailKey(input.email);
  const person = await d1
    .prepare("SELECT language, (SELECT count(*) FROM sign_in_links WHERE email = ?1 AND created_at > ?2) AS recent FROM people WHERE email = ?1 ORDER BY id LIMIT 1")
    .bind(email, now - 3_600_000)
    .first<{ language: Lang; recent: number }>();
  if (!person || person.recent >= SIGN_IN_EMAILS_PER_HOUR) return undefined;
  const token = newToken();
  await d1.prepare("INSERT INTO sign_in_links (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)").bind(await hashToken(token), email, now, now + SIGN_IN_LINK_MS).run();
  const from = env.ACCOUNTS_FROM || env.EMAIL_FROM;
  if (!from) return undefined;
  // The link's page speaks the person's language (a query parameter: addresses are the same in both).
  const link = `${input.origin}/employer/sign-in/${token}?lang=${person.language}${input.next ? `&next=${encodeURIComponent(input.next)}` : ""}`;
  const mail = signInEmail({ language: person.language, to: email, link, from, board: env.BOARD_NAME });
  return async () => {
    try {
      await env.EMAIL.send(mail);
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: "sign-in email not sent", error: String(error) }));
    }
  };
}
