import { APPLICATION_STATUSES, NOTIFIABLE, refusedMove, type ApplicationStatus } from "../../applications/pipeline";
import { ApplicationListQuerySchema } from "../../applications/schemas";
import type { MoveRequest } from "../../applications/service";
import { NotFoundError, ValidationError } from "../../http/problem";
import { IdParamSchema } from "../../http/schemas";
import type { Words } from "./words";

// DESIGN 25a: what the application pages read of a request — a path's id, the list's filters and
// page, the move form — each problem worded for the person, beside its field.

/** A path's id as the API reads one (DESIGN 4); anything else names nothing here: 404. */
export function idOf(text: string): number {
  const parsed = IdParamSchema.safeParse({ id: text });
  if (!parsed.success) throw new NotFoundError("There is nothing at this address.");
  return parsed.data.id;
}

/** The list's filters as the person chose them (the select's values), and their problems. */
export interface ListFilters {
  status: string;
  screenedOut: string;
  /** Kept across the filter form and the page links when the address gave one. */
  pageSize?: string;
}
export type ListErrors = Partial<Record<"status" | "screenedOut", string>>;

export type ListQuery =
  | { ok: true; filters: ListFilters; status?: ApplicationStatus; screenedOut?: boolean; page: number; pageSize: number }
  | { ok: false; filters: ListFilters; errors: ListErrors };

/**
 * The list's query, by the API's rules (`status`, `screenedOut`, `page`, `pageSize`: default 10,
 * at most 100). An empty select is no filter. A bad filter is the person's (422, beside its field);
 * a bad page is the address's (a 400, as the API answers).
 */
export function parseListQuery(query: Record<string, string>, words: Words): ListQuery {
  const given = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ""));
  const filters: ListFilters = { status: given.status ?? "", screenedOut: given.screenedOut ?? "", pageSize: given.pageSize };
  const parsed = ApplicationListQuerySchema.safeParse(given);
  if (parsed.success) return { ok: true, filters, ...parsed.data };
  const errors: ListErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === "status") errors.status = words.chooseStatus;
    else if (field === "screenedOut") errors.screenedOut = words.chooseKnockout;
    else throw new ValidationError([{ field: String(field), message: issue.message }]);
  }
  return { ok: false, filters, errors };
}

/** The move form as typed, and its problems. */
export interface MoveForm {
  status: string;
  note: string;
  notifyApplicant: boolean;
}
export type MoveErrors = Partial<Record<keyof MoveForm, string>>;

const MAX_NOTE = 2_000;
const isStatus = (value: string): value is ApplicationStatus => (APPLICATION_STATUSES as readonly string[]).includes(value);

/**
 * POST /employer/applications/{id}/status: `status`, `note` (optional), `notifyApplicant`
 * (a checkbox: present means true). The moves of DESIGN 20a only, from the status it is in now.
 */
export function parseMove(body: Record<string, unknown>, current: ApplicationStatus, words: Words): { form: MoveForm; errors: MoveErrors; move?: MoveRequest } {
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const form: MoveForm = { status: text("status"), note: text("note").trim(), notifyApplicant: body.notifyApplicant !== undefined };
  const errors: MoveErrors = {};
  if (!isStatus(form.status)) errors.status = words.chooseStatus;
  else {
    if (refusedMove(current, form.status)) errors.status = words.refused(words.statuses[current], words.statuses[form.status]);
    if (form.notifyApplicant && !NOTIFIABLE.includes(form.status)) errors.notifyApplicant = words.notifyOnlyOutcome;
  }
  if ([...form.note].length > MAX_NOTE) errors.note = words.noteTooLong;
  if (Object.keys(errors).length || !isStatus(form.status)) return { form, errors };
  return { form, errors, move: { status: form.status, note: form.note || null, notifyApplicant: form.notifyApplicant } };
}
