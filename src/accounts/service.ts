import { createDatabase } from "../db/client";
import { employerNameIn } from "../employers/service";
import type { Env } from "../env";
import { shardDatabase, shardNumbers } from "../shards/bindings";
import type { Lang } from "../ui/i18n";
import { createAccountsDatabase } from "./database/client";
import { invitationEmail, signInEmail } from "./email";
import {
  deletePerson,
  findAdmins,
  findEmployersOf,
  findOpenInvitation,
  findPeople,
  findSignInPerson,
  isSignInLinkOpen,
  recordInvitation,
  recordSignInLink,
  setLanguage,
  switchSession,
  updateRole,
  useInvitation,
  useSignInLink,
  type Invitation,
  type PendingInvitation,
  type Person,
  type PersonChange,
} from "./repository";
import { ABSOLUTE_MS, IDLE_MS, newSession } from "./session";
import { emailKey, hashToken, INVITATION_MS, newToken, SIGN_IN_LINK_MS, type Role } from "./tokens";

// DESIGN 25, 25a: invitations and sign-in links. Each acceptance is one ACCOUNTS_DB batch (one
// transaction, src/accounts/repository.ts): the token is marked used only while unused and
// unexpired, and the person and session are written only by the batch that marked it, so a
// token works once. People are changed by admins in the console: one batch each too, in which the
// employer's last admin stays one.

export type { PendingInvitation, Person, PersonChange } from "./repository";

/** At most this many sign-in emails per address per hour (counted in sign_in_links). */
export const SIGN_IN_EMAILS_PER_HOUR = 5;

/** The employer's name, from the shard it lives in (ids are unique across shards; a moved one left a tombstone). */
export async function employerName(env: Env, employerId: number): Promise<string | undefined> {
  const names = await Promise.all(shardNumbers(env).map((shard) => employerNameIn(createDatabase(shardDatabase(env, shard)), employerId)));
  return names.find((name) => name !== undefined);
}

/** Admins told of an operator's act at most (DESIGN 26): an employer has a handful. */
const ADMINS_TOLD = 50;

/** DESIGN 26: the employer's admins, each with the console language they chose, to tell of an operator's act. */
export function employerAdmins(env: Pick<Env, "ACCOUNTS_DB">, employerId: number): Promise<{ email: string; language: Lang }[]> {
  return findAdmins(createAccountsDatabase(env.ACCOUNTS_DB), employerId, ADMINS_TOLD);
}

/** An invitation that may still be accepted, or undefined (unknown, used or expired). */
export async function openInvitation(env: Env, token: string, now = Date.now()): Promise<Invitation | undefined> {
  return findOpenInvitation(createAccountsDatabase(env.ACCOUNTS_DB), await hashToken(token), now);
}

/** Accepts: the person (made unless already one of the employer), the invitation used, a session. Its cookie, or undefined. */
export async function acceptInvitation(env: Env, token: string, language: Lang, now = Date.now()): Promise<string | undefined> {
  const tokenHash = await hashToken(token);
  const session = await newSession();
  const used = await useInvitation(createAccountsDatabase(env.ACCOUNTS_DB), { tokenHash, now, language, session: { id: session.id, expiresAt: now + ABSOLUTE_MS } });
  return used ? session.cookie : undefined;
}

/** Whether a sign-in link may still be used. */
export async function openSignInLink(env: Env, token: string, now = Date.now()): Promise<boolean> {
  return isSignInLinkOpen(createAccountsDatabase(env.ACCOUNTS_DB), await hashToken(token), now);
}

/**
 * Signs in by link: used once, within 15 minutes. The session's cookie and how many employers the
 * address belongs to (the session is for the first it joined; with several, the person chooses
 * next: switchEmployer), or undefined.
 */
export async function signInWithLink(env: Env, token: string, now = Date.now()): Promise<{ cookie: string; employers: number } | undefined> {
  const tokenHash = await hashToken(token);
  const session = await newSession();
  const employers = await useSignInLink(createAccountsDatabase(env.ACCOUNTS_DB), { tokenHash, now, session: { id: session.id, expiresAt: now + ABSOLUTE_MS } });
  return employers === undefined ? undefined : { cookie: session.cookie, employers };
}

/** DESIGN 25: the employers an address belongs to, with their names, in the order it joined them. */
export async function employersOf(env: Env, email: string): Promise<{ id: number; name: string }[]> {
  const employers = await findEmployersOf(createAccountsDatabase(env.ACCOUNTS_DB), emailKey(email));
  return Promise.all(employers.map(async ({ employerId }) => ({ id: employerId, name: (await employerName(env, employerId)) ?? `#${employerId}` })));
}

/**
 * DESIGN 25: a person of several employers switches to another: a new session for the same
 * address's person there, the current one ended. Its cookie, or undefined when the address does
 * not belong to that employer (or the session ended meanwhile): nothing changed.
 */
export async function switchEmployer(env: Env, sessionId: string, employerId: number, now = Date.now()): Promise<string | undefined> {
  const session = await newSession();
  const switched = await switchSession(createAccountsDatabase(env.ACCOUNTS_DB), { sessionId, employerId, now, idleMs: IDLE_MS, session });
  return switched ? session.cookie : undefined;
}

/** An email to send after the answer (waitUntil): a failed send is logged, and the person asks again. */
function sendLater(env: Env, mail: Parameters<SendEmail["send"]>[0], what: string): () => Promise<void> {
  return async () => {
    try {
      await env.EMAIL.send(mail);
    } catch (error) {
      console.error(JSON.stringify({ level: "error", message: `${what} email not sent`, error: String(error) }));
    }
  };
}

/** DESIGN 25a: the person's console language, remembered. */
export async function rememberLanguage(env: Env, personId: number, language: Lang): Promise<void> {
  await setLanguage(createAccountsDatabase(env.ACCOUNTS_DB), personId, language);
}

/**
 * DESIGN 25a: a sign-in email for a known address, at most 5 an hour; nothing for an unknown one.
 * The caller answers the same either way. Returns the send to wait for (after the answer), if any.
 */
export async function requestSignIn(env: Env, input: { email: string; origin: string; next?: string }, now = Date.now()): Promise<(() => Promise<void>) | undefined> {
  const db = createAccountsDatabase(env.ACCOUNTS_DB);
  const email = emailKey(input.email);
  const person = await findSignInPerson(db, email, now - 3_600_000);
  if (!person || person.recent >= SIGN_IN_EMAILS_PER_HOUR) return undefined;
  const token = newToken();
  await recordSignInLink(db, { tokenHash: await hashToken(token), email, createdAt: now, expiresAt: now + SIGN_IN_LINK_MS });
  const from = env.ACCOUNTS_FROM || env.EMAIL_FROM;
  if (!from) return undefined;
  // The link's page speaks the person's language (a query parameter: addresses are the same in both).
  const link = `${input.origin}/employer/sign-in/${token}?lang=${person.language}${input.next ? `&next=${encodeURIComponent(input.next)}` : ""}`;
  return sendLater(env, signInEmail({ language: person.language, to: email, link, from, board: env.BOARD_NAME }), "sign-in");
}

/** DESIGN 25: the employer's people and its invitations still open. */
export async function peopleOf(env: Env, employerId: number, now = Date.now()): Promise<{ people: Person[]; invitations: PendingInvitation[] }> {
  return findPeople(createAccountsDatabase(env.ACCOUNTS_DB), employerId, now);
}

/**
 * DESIGN 25, 25a: an admin invites someone — single use, 7 days; the email (in the inviter's
 * language) names the employer and who invited. "person-already" when the address is one of the
 * employer's people; else the send to wait for after the answer (none without a sender address).
 */
export async function invitePerson(
  env: Env,
  input: { employerId: number; email: string; role: Role; inviter: { email: string; language: Lang }; origin: string },
  now = Date.now(),
): Promise<"person-already" | { send?: () => Promise<void> }> {
  const token = newToken();
  const email = emailKey(input.email);
  const { employerId, role, inviter } = input;
  const invitation = { tokenHash: await hashToken(token), employerId, email, role, invitedBy: inviter.email, createdAt: now, expiresAt: now + INVITATION_MS };
  if (!(await recordInvitation(createAccountsDatabase(env.ACCOUNTS_DB), invitation))) return "person-already";
  const from = env.ACCOUNTS_FROM || env.EMAIL_FROM;
  if (!from) return {};
  const employer = (await employerName(env, employerId)) ?? `#${employerId}`;
  const link = `${input.origin}/employer/invitations/${token}?lang=${inviter.language}`;
  const mail = invitationEmail({ language: inviter.language, to: email, link, from, board: env.BOARD_NAME, employer, inviter: inviter.email, role });
  return { send: sendLater(env, mail, "invitation") };
}

/** DESIGN 25a: a person's role; the employer's last admin stays one. */
export async function changeRole(env: Env, employerId: number, personId: number, role: Role): Promise<PersonChange> {
  return updateRole(createAccountsDatabase(env.ACCOUNTS_DB), { employerId, personId, role });
}

/** DESIGN 25: removes a person of the employer and ends their sessions at once; never the last admin. */
export async function removePerson(env: Env, employerId: number, personId: number): Promise<PersonChange> {
  return deletePerson(createAccountsDatabase(env.ACCOUNTS_DB), { employerId, personId });
}
