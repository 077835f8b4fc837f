import { sql } from "drizzle-orm";
import { toStatement, type Database } from "../db/client";
import { recordEvents, recordedEventsOf, type RecordedEvent } from "../events/outbox";
import { EMPLOYER_RENAMED } from "../events/types";
import { EmployerMovedError } from "../shards/locks";
import type { EmployerSettings, PostingRulesMode } from "./schemas";
import { CREATE_TEST_SPACE_SQL, TEST_SPACE_ID_SQL } from "./test-space";
import { suspensionGuard } from "./suspension";

/** The employer's settings and their revision (which grows with every change). */
export interface Employer extends EmployerSettings {
  revision: number;
}

interface EmployerRow {
  id: number;
  name: string;
  ontarioEmployees: number | null;
  federallyRegulated: number;
  postingRules: PostingRulesMode;
  revision: number;
}

const COLUMNS = sql`id, name, ontario_employees AS ontarioEmployees, federally_regulated AS federallyRegulated,
  posting_rules AS postingRules, revision`;

const toEmployer = (row: EmployerRow): Employer => ({ ...row, federallyRegulated: Boolean(row.federallyRegulated) });

/**
 * The read of one employer, for a caller's own batch (one round trip with its other reads). A row
 * that is a tombstone (DESIGN 22: the employer moved to another shard) is no answer: the request
 * is served again where it moved (EmployerMovedError, src/shards/follow.ts).
 */
export function employerStatement(db: Database, id: number): { statement: D1PreparedStatement; employer(result: D1Result): Employer | undefined } {
  return {
    statement: toStatement(db, sql`SELECT ${COLUMNS}, moved_to AS movedTo FROM employers WHERE id = ${id}`),
    employer: (result) => {
      const row = result.results[0] as (EmployerRow & { movedTo: number | null }) | undefined;
      if (!row) return undefined;
      const { movedTo, ...employer } = row;
      if (movedTo !== null) throw new EmployerMovedError(movedTo);
      return toEmployer(employer);
    },
  };
}

/** The name of employer `id` in this shard, unless it moved away (its tombstone) or is a test space. */
export async function findEmployerName(db: Database, id: number): Promise<string | undefined> {
  const [row] = await db.all<{ name: string }>(sql`SELECT name FROM employers WHERE id = ${id} AND moved_to IS NULL AND test_of IS NULL`);
  return row?.name;
}

/** DESIGN 21: the id of employer `id`'s test space, made first when `open` and it has none; undefined when it has none. */
export async function findTestSpace(db: Database, id: number, open: boolean): Promise<number | undefined> {
  const read = db.$client.prepare(TEST_SPACE_ID_SQL).bind(id);
  const results = open ? await db.$client.batch([db.$client.prepare(CREATE_TEST_SPACE_SQL).bind(id), read]) : [await read.all()];
  return (results.at(-1)!.results[0] as { id: number } | undefined)?.id;
}

export async function findEmployer(db: Database, id: number): Promise<Employer | undefined> {
  const read = employerStatement(db, id);
  return read.employer(await read.statement.all());
}

/**
 * One atomic batch, only if the settings are still at `expected.revision`: the new settings,
 * a revision more, and, when the name changes, the `employer.renamed` event the board reads
 * (DESIGN 17a). Undefined when another change came first.
 */
export async function updateEmployer(
  db: Database,
  expected: Employer,
  next: EmployerSettings,
  occurredAt: number,
  events: RecordedEvent[],
): Promise<Employer | undefined> {
  const unchanged = sql`id = ${expected.id} AND revision = ${expected.revision}`;
  const statements = [
    ...(next.name !== expected.name
      ? [recordEvents(EMPLOYER_RENAMED, occurredAt, sql`SELECT id AS employer_id, id AS subject_id, NULL AS revision,
          json_object('name', ${next.name}) AS data FROM employers WHERE ${unchanged}`)]
      : []),
    sql`UPDATE employers SET name = ${next.name}, ontario_employees = ${next.ontarioEmployees},
        federally_regulated = ${Number(next.federallyRegulated)}, posting_rules = ${next.postingRules}, revision = revision + 1
      WHERE ${unchanged} RETURNING ${COLUMNS}`,
  ];
  const results = await db.$client.batch([suspensionGuard(expected.id), ...statements].map((statement) => toStatement(db, statement)));
  const updated = results.at(-1)!.results[0] as EmployerRow | undefined;
  if (updated) events.push(...recordedEventsOf(results));
  return updated ? toEmployer(updated) : undefined;
}
