import { sql, type SQL } from "drizzle-orm";
import { recordEvents, recordEventsByRow } from "../../events/outbox";
import type { JobEventType } from "../../events/types";
import { actorJson, OPERATOR_ACTOR, SYSTEM_ACTOR, type Actor } from "../../events/actor";
import { JOB_COLUMNS_OBJECT, JOB_FROM } from "./columns";
import { jobSnapshot } from "./reads";
import { jobIdOf, type JobKey } from "./statements";

// What a job's change records in the events outbox, in the change's own batch (DESIGN 13, 16).

/** DESIGN 13: a deleted job's event names only what it was, and who deleted it; `j` the job's table (alias and dot) or nothing. */
const deletedJobColumns = (j: "" | "j.", actor: Actor) =>
  sql`${sql.raw(`${j}employer_id AS employer_id, ${j}id AS subject_id, ${j}revision AS revision,
  json_object('job', json_object('id', ${j}id, 'referenceId', ${j}reference_id)`)}, 'actor', ${actorJson(actor)}) AS data`;

/** A deleted job's event, the source of recordEvents, on table `jobs`. */
export const deletedJobSource = (actor: Actor) => deletedJobColumns("", actor);

/** The events of a job's change, for the write batch that stores it (the job as it is then). */
export function jobEventStatements(employerId: number, key: JobKey, types: JobEventType[], occurredAt: number, actor: Actor): SQL[] {
  if (types.length === 0) return [];
  return [
    recordEvents(
      types,
      occurredAt,
      sql`SELECT ${employerId} AS employer_id, j.id AS subject_id, j.revision AS revision, json_object('job', json(${jobSnapshot(employerId, key)}), 'actor', ${actorJson(actor)}) AS data
        FROM jobs j WHERE j.id = ${jobIdOf(employerId, key)} AND j.employer_id = ${employerId}`,
    ),
  ];
}

/** DESIGN 26a: the operator's act on a job (job.removed, job.restored): the job as the act left it, and what was done. */
export function moderationEventStatement(employerId: number, jobId: number, type: "job.removed" | "job.restored", occurredAt: number, moderation: object): SQL {
  return recordEvents(
    type,
    occurredAt,
    sql`SELECT ${employerId} AS employer_id, j.id AS subject_id, j.revision AS revision,
        json_object('job', json(${jobSnapshot(employerId, { id: jobId })}), 'actor', ${actorJson(OPERATOR_ACTOR)}, 'moderation', json(${JSON.stringify(moderation)})) AS data
      FROM jobs j WHERE j.id = ${jobId} AND j.employer_id = ${employerId}`,
  );
}

/**
 * The events of many jobs' changes by referenceId (a batch's upserts), each job as the batch
 * left it: one statement after all their writes, not one per job.
 */
export function jobEventsByReferenceStatement(employerId: number, changes: { referenceId: string; types: JobEventType[] }[], occurredAt: number, actor: Actor): SQL[] {
  const emitting = changes.filter((change) => change.types.length > 0);
  if (emitting.length === 0) return [];
  return [
    recordEventsByRow(
      occurredAt,
      sql`SELECT j.employer_id AS employer_id, j.id AS subject_id, j.revision AS revision, json_object('job', ${JOB_COLUMNS_OBJECT}, 'actor', ${actorJson(actor)}) AS data,
          json_extract(c.value, '$.types') AS types, c.key AS position
        ${JOB_FROM}
        JOIN json_each(${JSON.stringify(emitting)}) c ON j.reference_id = json_extract(c.value, '$.referenceId')
        WHERE j.employer_id = ${employerId}`,
    ),
  ];
}

/**
 * The `job.deleted` events of the jobs a batch deletes, in their order, recorded before their
 * delete: `from` a row source (src/db/lists.ts) whose rows name each job by `id`.
 */
export function deletedEventsStatement(employerId: number, from: SQL, id: SQL, occurredAt: number, actor: Actor): SQL {
  return recordEventsByRow(
    occurredAt,
    sql`SELECT ${deletedJobColumns("j.", actor)}, '["job.deleted"]' AS types, r.key AS position
      FROM ${from} JOIN jobs j ON j.id = ${id} WHERE +j.employer_id = ${employerId}`,
  );
}

/**
 * The cron's events, set-based: one event source over every job `condition` (the cron's own
 * WHERE, on table `jobs`) selects, with the job as the UPDATE right after it will leave it
 * (`changes`: JSON paths and values, revision + 1); the service's own unless told (a reconcile's key).
 */
export function scheduledEventSource(condition: SQL, changes: SQL, actor: Actor = SYSTEM_ACTOR): SQL {
  return sql`SELECT j.employer_id AS employer_id, j.id AS subject_id, j.revision + 1 AS revision,
      json_object('job', json_set(${JOB_COLUMNS_OBJECT}, '$.revision', j.revision + 1, ${changes}), 'actor', ${actorJson(actor)}) AS data
    ${JOB_FROM}
    WHERE j.id IN (SELECT id FROM jobs WHERE ${condition})`;
}

/** The cron's notices about jobs it does not change (job.expiring): each job as it is now. */
export function unchangedJobEventSource(condition: SQL): SQL {
  return sql`SELECT j.employer_id AS employer_id, j.id AS subject_id, j.revision AS revision, json_object('job', ${JOB_COLUMNS_OBJECT}, 'actor', ${actorJson(SYSTEM_ACTOR)}) AS data
    ${JOB_FROM}
    WHERE j.id IN (SELECT id FROM jobs WHERE ${condition})`;
}
