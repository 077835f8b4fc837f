// Bench-only (never deployed): the probe's receipts route (DESIGN 16a, issue 39), so the harness
// (bench/lib/receipts.mjs) can time inside workerd what a receipt adds to a consumer's batch. The
// consumers always write their receipts, so this route runs their D1 work step by step through
// the same public functions, with the receipts statement (takeEvents) or without it:
//
// - board: what src/board/consumer.ts does for one queue batch of one shard: findEvents of the
//   notices' ids, each job event's change (jobOfEvent), applyJobChanges with `alongside` the
//   receipts of every id handed over, or nothing;
// - webhooks: what src/webhooks/consumer.ts does for one queue batch of notices, each fanned out
//   at the same time (its `fanOut` in the shard that recorded the events, no move under way):
//   findEvents, employersWithEnabledEndpoints, insertEventMessages with `alongside` the receipts,
//   or nothing. The messages are not handed to the queue (no D1 work, and nothing would take them).
//
// With `alone`, the receipts statement by itself in a batch of its own (the board's one statement;
// each webhook notice's, at once): what it costs on its own, a round trip included.
//
// Each call does fresh work, so neither variant is a no-op: the changes carry the events'
// revisions plus `bump` (newer than what the board holds, so every one applies), and the events
// get fresh ids (new messages, new receipts), keeping their type, employer and data.
import { createBoardDatabase } from "../src/board/database/client";
import { boardReceipts } from "../src/board/database/tables";
import { applyJobChanges } from "../src/board/feed";
import { createDatabase, toStatement, type Database } from "../src/db/client";
import type { Env } from "../src/env";
import { takeEvents } from "../src/events/receipts";
import { findEvents, type EventRecord } from "../src/events/repository";
import { jobOfEvent } from "../src/jobs/event-data";
import { shardOf } from "../src/shards/bindings";
import { insertEventMessages } from "../src/webhooks/messages";
import { employersWithEnabledEndpoints } from "../src/webhooks/repository";
import { webhookReceipts } from "../src/webhooks/tables";
import { countingD1 } from "../test/support/count-d1";

interface ReceiptsRequest {
  kind: "board" | "webhooks";
  /** Ids of events in the outbox of env's shard, each notice's in turn. */
  notices: string[][];
  receipts: boolean;
  /** board: added to every event's revision. */
  bump?: number;
  /** The receipts statement alone (each notice's, for webhooks), in a batch of its own: what it costs by itself. */
  alone?: boolean;
}

/** An event id as recordEvents makes them: `evt_` and 32 hex digits. */
const freshId = () => `evt_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

/** The receipts of fresh ids as many as `notices` name, each notice's statement in its own batch, at once (as the fan-outs run). */
async function receiptsAlone(db: Database, table: typeof boardReceipts, shard: number, notices: string[][], together: boolean) {
  const started = Date.now();
  const now = Date.now();
  const lists = together ? [notices.flat()] : notices;
  await Promise.all(lists.map((ids) => db.$client.batch([toStatement(db, takeEvents(table, shard, ids.map(freshId), now))])));
  return { elapsedMs: Date.now() - started, receipts: notices.flat().length, statements: lists.length };
}

async function board(env: Env, body: ReceiptsRequest) {
  const counter = countingD1(env.BOARD_DB);
  const db = createBoardDatabase(counter.db);
  const shard = shardOf(env);
  if (body.alone) return receiptsAlone(db, boardReceipts, shard, body.notices, true);
  const started = Date.now();
  const handedOver = body.notices.flat();
  const events = await findEvents(createDatabase(env.DB), handedOver);
  const changes = events
    .filter((event) => event.type.startsWith("job."))
    .map((event) => ({ jobId: event.subjectId, revision: (event.revision ?? 0) + (body.bump ?? 0), row: jobOfEvent(event.type, event.data), shard }));
  // The real events were taken once already (their receipts exist): fresh ids, so each receipt is written.
  const receipts = body.receipts ? [takeEvents(boardReceipts, shard, handedOver.map(freshId), Date.now())] : [];
  await applyJobChanges(db, changes, "newer", Math.floor(Date.now() / 1000), receipts);
  return { elapsedMs: Date.now() - started, events: events.length, changes: changes.length, receipts: receipts.length ? handedOver.length : 0, boardTrips: counter.count(), boardStatements: counter.statements() };
}

async function webhooks(env: Env, body: ReceiptsRequest) {
  const counter = countingD1(env.DB);
  const db = createDatabase(counter.db);
  const shard = shardOf(env);
  if (body.alone) return receiptsAlone(db, webhookReceipts, shard, body.notices, false);
  const started = Date.now();
  const perNotice = await Promise.all(
    body.notices.map(async (ids) => {
      const events: EventRecord[] = (await findEvents(db, ids)).map((event) => ({ ...event, id: freshId() }));
      const { listening, locked } = await employersWithEnabledEndpoints(db, events.map((event) => event.employerId));
      const here = events.filter((event) => !locked.has(event.employerId));
      const now = Date.now();
      const receipts = body.receipts && here.length ? [takeEvents(webhookReceipts, shard, here.map((event) => event.id), now)] : [];
      const messages = await insertEventMessages(db, here.filter((event) => listening.has(event.employerId)), listening, now, receipts);
      return { events: events.length, messages: messages.length, receipts: receipts.length ? here.length : 0 };
    }),
  );
  const sum = (key: "events" | "messages" | "receipts") => perNotice.reduce((total, notice) => total + notice[key], 0);
  return { elapsedMs: Date.now() - started, events: sum("events"), messages: sum("messages"), receipts: sum("receipts"), trips: counter.count(), statements: counter.statements() };
}

/** POST /__probe/receipts with a ReceiptsRequest: the batch's time inside workerd and what it did. */
export function receiptsProbe(request: Request, url: URL, env: Env): Promise<Response> | null {
  if (url.pathname !== "/__probe/receipts") return null;
  return (async () => {
    const body = (await request.json()) as ReceiptsRequest;
    try {
      return Response.json(body.kind === "board" ? await board(env, body) : await webhooks(env, body));
    } catch (error) {
      return Response.json({ error: String((error as Error)?.stack ?? error) }, { status: 500 });
    }
  })();
}
