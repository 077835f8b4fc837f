import { envelope } from "../events/payload";
import { renderJobEventData } from "../jobs/event-data";

/** A message's body (DESIGN 13): job events rendered by jobs, other data sent as recorded. */
export function renderPayload(type: string, occurredAt: number, data: string): string {
  return envelope(type, occurredAt, type.startsWith("job.") ? renderJobEventData(type, data) : JSON.parse(data));
}
