import { sql, type SQL } from "drizzle-orm";

// DESIGN 25: who made a job's change, in its events' data (`actor`, additive): a person of the
// employer's console, an API key, the service itself on its schedule (expiry, auto-refresh,
// the expiring notice), or the board's operator (DESIGN 26: a removal or a restoration; which
// operator is the board's own record, not the employer's).

export type Actor = { type: "user"; id: number } | { type: "key" } | { type: "system" } | { type: "operator" };

export const KEY_ACTOR: Actor = { type: "key" };
export const SYSTEM_ACTOR: Actor = { type: "system" };
export const OPERATOR_ACTOR: Actor = { type: "operator" };

/** The actor as a JSON value inside an event's `json_object(...)`. */
export const actorJson = (actor: Actor): SQL => sql`json(${JSON.stringify(actor)})`;
