import { sql, type SQL } from "drizzle-orm";

// DESIGN 25: who made a job's change, in its events' data (`actor`, additive): a person of the
// employer's console, an API key, or the service itself on its schedule (expiry, auto-refresh,
// the expiring notice).

export type Actor = { type: "user"; id: number } | { type: "key" } | { type: "system" };

export const KEY_ACTOR: Actor = { type: "key" };
export const SYSTEM_ACTOR: Actor = { type: "system" };

/** The actor as a JSON value inside an event's `json_object(...)`. */
export const actorJson = (actor: Actor): SQL => sql`json(${JSON.stringify(actor)})`;
