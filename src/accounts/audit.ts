import { sql, type SQL } from "drizzle-orm";
import type { Env } from "../env";
import { runStages } from "../scheduled/stages";
import { batch, createAccountsDatabase, run } from "./database/client";

// DESIGN 26, 26a: the record of every act of the operator's console, in ACCOUNTS_DB (the table
// `audit`), kept 7 years. "A console write without its record does not happen (one batch)":
// - an act written in ACCOUNTS_DB (an invitation) carries its record in its own batch (actStatement);
// - an act written in an employer's shard cannot share a batch with ACCOUNTS_DB, so its record is
//   written first (`pending`), the act is done, and the record is then marked `done` or `failed`
//   (beginAct, endAct). The act never happens without its record; a record left `pending` (the
//   Worker stopped between the two) says the act may have happened, and the console shows so.

/** An act as the operator asked it. */
export interface Act {
  operator: string;
  /** `employer.create`, `employer.plan`, `employer.invite`, … */
  action: string;
  /** `employer:12`, `job:34`, … */
  target: string;
  reason?: string | null;
  note?: string | null;
}

export type Outcome = "pending" | "done" | "failed";

/** A record as the console and `npm run operator -- audit` show it. */
export interface ActRecord {
  id: number;
  at: number;
  operator: string;
  action: string;
  target: string;
  reason: string | null;
  note: string | null;
  outcome: Outcome;
}

/** DESIGN 26: records are kept 7 years. */
export const AUDIT_KEPT_MS = 7 * 365.25 * 86_400_000;
/** Records deleted per cron run at most: a few statements, whatever the backlog. */
const DELETED_PER_CHUNK = 500;
const DELETE_CHUNKS_PER_RUN = 10;

const db = (env: Env) => createAccountsDatabase(env.ACCOUNTS_DB);

/** The insert of an act's record, for the batch of an act written in ACCOUNTS_DB (src/accounts). */
export function actStatement(act: Act, at: number, outcome: Outcome = "done"): SQL {
  return sql`INSERT INTO audit (at, operator, action, target, reason, note, outcome)
    VALUES (${at}, ${act.operator}, ${act.action}, ${act.target}, ${act.reason ?? null}, ${act.note ?? null}, ${outcome})`;
}

/** Records an act about to be written elsewhere (an employer's shard): `pending`; its id, for endAct. */
export async function beginAct(env: Env, act: Act, at = Date.now()): Promise<number> {
  const [inserted] = await batch(db(env), [sql`${actStatement(act, at, "pending")} RETURNING id`]);
  return (inserted.results[0] as { id: number }).id;
}

/** The act's outcome; `target` names what the act made when it was not known before (a new employer). */
export async function endAct(env: Env, id: number, outcome: "done" | "failed", target?: string): Promise<void> {
  await run(db(env), endStatement(id, outcome, target));
}

/** The update that ends a pending record (only once). */
const endStatement = (id: number, outcome: "done" | "failed", target?: string): SQL =>
  sql`UPDATE audit SET outcome = ${outcome}, target = coalesce(${target ?? null}, target) WHERE id = ${id} AND outcome = 'pending'`;

/** The newest records first, `limit` of them, older than record `before` when given. */
export async function listActs(env: Env, { before, limit }: { before?: number; limit: number }): Promise<ActRecord[]> {
  const older = before === undefined ? sql`` : sql`WHERE id < ${before}`;
  return db(env).all<ActRecord>(sql`SELECT id, at, operator, action, target, reason, note, outcome FROM audit ${older} ORDER BY id DESC LIMIT ${limit}`);
}

/** DESIGN 26: the cron's share for the audit — records older than 7 years deleted, a bounded number a run. */
export function runAuditRetention(env: Env, now: number) {
  return runStages([
    [
      "auditRetention",
      async () => {
        let deleted = 0;
        for (let chunk = 0; chunk < DELETE_CHUNKS_PER_RUN; chunk++) {
          const result = await run(db(env), sql`DELETE FROM audit WHERE id IN (SELECT id FROM audit WHERE at < ${now - AUDIT_KEPT_MS} ORDER BY at LIMIT ${DELETED_PER_CHUNK})`);
          deleted += result.meta.changes;
          if (result.meta.changes < DELETED_PER_CHUNK) break;
        }
        return { deleted };
      },
    ],
  ]);
}
