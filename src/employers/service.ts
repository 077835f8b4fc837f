import type { Database } from "../db/client";
import type { RecordedEvent } from "../events/outbox";
import { ConflictError, NotFoundError } from "../http/problem";
import { employerStatement, findEmployer, findEmployerName, findTestSpace, updateEmployer, type Employer } from "./repository";
import type { EmployerSettings, EmployerSettingsInput } from "./schemas";

export type { Employer } from "./repository";

/** The employer's name as the console shows it (src/accounts), from the shard `db` is: undefined where it does not live. */
export const employerNameIn = (db: Database, employerId: number): Promise<string | undefined> => findEmployerName(db, employerId);

const NOT_FOUND = "Your API key names an employer that no longer exists.";
const MAX_ATTEMPTS = 20;

/** DESIGN 21: the employer's test space (the employer its jpa_test_ keys name), if it has one. */
export const testSpaceOf = (db: Database, employerId: number): Promise<number | undefined> => findTestSpace(db, employerId, false);

/** DESIGN 21: the employer's test space, made on first use (as `npm run keys -- create --test` makes it). */
export async function openTestSpace(db: Database, employerId: number): Promise<number> {
  const id = await findTestSpace(db, employerId, true);
  if (id === undefined) throw new NotFoundError(NOT_FOUND);
  return id;
}

/** The settings as an answer shows them (the revision is internal). */
export const settingsOf = ({ revision: _revision, ...settings }: Employer): EmployerSettings => settings;

export async function getEmployer(db: Database, employerId: number): Promise<Employer> {
  const employer = await findEmployer(db, employerId);
  if (!employer) throw new NotFoundError(NOT_FOUND);
  return employer;
}

/** A change made against `revision` when the settings are at a newer one: nothing was saved. */
export class SettingsChangedError extends ConflictError {
  constructor(readonly current: Employer) {
    super("settings-changed", "Your settings changed since you read them; read them again and send your change once more.");
  }
}

/**
 * PUT /employer: a partial change, conditioned on the settings it was merged onto. Given
 * `openedAt` (the revision a person's form showed, DESIGN 25), a newer revision refuses it whole.
 */
export async function changeEmployer(
  db: Database,
  employerId: number,
  input: EmployerSettingsInput,
  events: RecordedEvent[],
  openedAt?: number,
): Promise<Employer> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const current = await getEmployer(db, employerId);
    if (openedAt !== undefined && current.revision !== openedAt) throw new SettingsChangedError(current);
    const next = { ...settingsOf(current), ...definedMembers(input) };
    if (JSON.stringify(next) === JSON.stringify(settingsOf(current))) return current;
    const updated = await updateEmployer(db, current, next, Date.now(), events);
    if (updated) return updated;
  }
  throw new ConflictError("edit-conflict", `Your settings changed ${MAX_ATTEMPTS} times while this request was applied; send it again.`);
}

const definedMembers = <T extends object>(input: T): Partial<T> =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;

/**
 * The employer read together with the caller's own statements, in one round trip: the answers
 * to those, and the settings.
 */
export async function withEmployer(db: Database, employerId: number, statements: D1PreparedStatement[]): Promise<{ results: D1Result[]; employer: Employer }> {
  const read = employerStatement(db, employerId);
  const results = await db.$client.batch([...statements, read.statement]);
  const employer = read.employer(results.at(-1)!);
  if (!employer) throw new NotFoundError(NOT_FOUND);
  return { results: results.slice(0, -1), employer };
}
