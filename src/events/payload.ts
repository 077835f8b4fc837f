/**
 * The payload contract every receiver gets (DESIGN 13, 13a): `{ type, timestamp, data }`, the
 * timestamp being when the change was stored, with milliseconds, the same on every attempt.
 * `data` is what the event's own capability renders from the data its writer recorded.
 */
export function envelope(type: string, occurredAt: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: new Date(occurredAt).toISOString(), data });
}
