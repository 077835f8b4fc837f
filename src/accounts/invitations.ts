import { sql } from "drizzle-orm";
import type { Env } from "../env";
import type { Lang } from "../ui/i18n";
import { actStatement } from "./audit";
import { batch, createAccountsDatabase } from "./database/client";
import { invitationEmail } from "./email";
import { emailKey, hashToken, INVITATION_MS, newToken, type Role } from "./tokens";

// DESIGN 25, 26: the operator invites an employer's first admin (as `npm run people -- invite`
// does), and sees an employer's people. The invitation and the act's record are one ACCOUNTS_DB
// batch; the email goes after, its link the only copy of the token (only its SHA-256 is stored).

export interface EmployerPerson {
  kind: "person" | "invitation";
  email: string;
  role: Role;
  /** A person: when they joined; an invitation: when it was sent. */
  createdAt: number;
  /** An invitation: open, accepted or expired. */
  status?: "open" | "accepted" | "expired";
}

/** At most this many people and invitations are shown for one employer. */
const PEOPLE_SHOWN = 200;

/**
 * Invites `email` as the employer's admin, recorded as the operator's act in the same batch.
 * Whether the email was handed to the Email Service (the invitation stands either way).
 */
export async function inviteAdminByOperator(
  env: Env,
  input: { employerId: number; employer: string; email: string; language: Lang; origin: string; operator: string },
  now = Date.now(),
): Promise<{ emailed: boolean }> {
  const email = emailKey(input.email);
  const token = newToken();
  await batch(createAccountsDatabase(env.ACCOUNTS_DB), [
    sql`INSERT INTO invitations (token_hash, employer_id, email, role, invited_by, created_at, expires_at)
        VALUES (${await hashToken(token)}, ${input.employerId}, ${email}, 'admin', 'operator', ${now}, ${now + INVITATION_MS})`,
    actStatement({ operator: input.operator, action: "employer.invite", target: `employer:${input.employerId}`, note: `${email} (admin)` }, now),
  ]);
  const from = env.ACCOUNTS_FROM || env.EMAIL_FROM;
  if (!from) return { emailed: false };
  const link = `${input.origin}/employer/invitations/${token}?lang=${input.language}`;
  try {
    await env.EMAIL.send(invitationEmail({ language: input.language, to: email, link, from, employer: input.employer, role: "admin", board: env.BOARD_NAME }));
    return { emailed: true };
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "invitation email not sent", error: String(error) }));
    return { emailed: false };
  }
}

/** The employer's people, then its invitations (newest first), as the operator sees them. */
export async function employerPeople(env: Env, employerId: number, now = Date.now()): Promise<EmployerPerson[]> {
  const db = createAccountsDatabase(env.ACCOUNTS_DB);
  const [people, invitations] = await batch(db, [
    sql`SELECT email, role, created_at AS createdAt FROM people WHERE employer_id = ${employerId} ORDER BY id LIMIT ${PEOPLE_SHOWN}`,
    sql`SELECT email, role, created_at AS createdAt, expires_at AS expiresAt, used_at AS usedAt FROM invitations WHERE employer_id = ${employerId} ORDER BY created_at DESC LIMIT ${PEOPLE_SHOWN}`,
  ]);
  return [
    ...(people.results as { email: string; role: Role; createdAt: number }[]).map((row) => ({ kind: "person" as const, ...row })),
    ...(invitations.results as { email: string; role: Role; createdAt: number; expiresAt: number; usedAt: number | null }[]).map(({ expiresAt, usedAt, ...row }) => ({
      kind: "invitation" as const,
      ...row,
      status: usedAt !== null ? ("accepted" as const) : expiresAt <= now ? ("expired" as const) : ("open" as const),
    })),
  ];
}
