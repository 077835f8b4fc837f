import type { z } from "zod";
import type { Database } from "../db/client";
import { cleanDescription } from "../description/clean";
import { inputDigest } from "../description/digest";
import { parseMembers } from "../http/partial-parse";
import { ProblemError, type FieldError } from "../http/problem";
import { toFieldErrors } from "../http/validation";
import { resolvePlace, unknownCityMessage } from "../locations/resolve";
import { loadReferenceData, type ReferenceData } from "../reference/repository";
import { findOwnedPlaces, type OwnedPlace } from "./repository";
import { mergeErrors, mergeJob, unknownTranslationErrors, validateJob, type JobPlace, type JobState, type SettledTexts } from "./rules";
import { JobInputSchema, type JobInput } from "./schemas";

// One evaluation of a job body (DESIGN 4 and 5): every member parsed on its own, the valid ones
// merged into the job (or a new one) and the result checked as a whole, so one answer names
// every wrong type and every broken rule. The parts that do not depend on the stored job
// (parsing, resolving places, digesting the descriptions) run once per request, however often
// a concurrent change makes the merge run again; a description is cleaned at most once, and not
// at all when the stored job's was cleaned from the same input (issue 27).

export interface PreparedBody {
  input: JobInput;
  /** Wrong types and places that cannot be resolved (a refused description: see `settleTexts`). */
  errors: FieldError[];
  reference: ReferenceData;
  /** The request's places, resolved; undefined when it sent no `locations`. */
  places?: JobPlace[];
  /** `description` as sent; undefined when not sent, null when sent empty. */
  description?: SentText | null;
  /** The same for `translations.fr.description`. */
  frenchDescription?: SentText | null;
}

/** A description as the client sent it; cleaned at most once per request, and only when needed. */
interface SentText {
  field: "description" | "translations.fr.description";
  raw: string;
  digest: string;
  cleaned?: Promise<{ description?: string | null; errors: FieldError[] }>;
}

export interface Evaluation {
  job: JobState;
  errors: FieldError[];
  /** A move that is not allowed (409, not 400). */
  conflict?: string;
}

/** The employer's own places with any of these names. */
export type OwnedPlaces = (nameKeys: string[]) => Promise<OwnedPlace[]>;

const ownedPlacesOf = (db: Database, employerId: number): OwnedPlaces => (nameKeys) => findOwnedPlaces(db, employerId, nameKeys);

/**
 * For many bodies at once (a batch): the one lookup all of them need, made up front, so the
 * round trips do not grow with the number of bodies.
 */
export async function prefetchOwnedPlaces(db: Database, employerId: number, bodies: Record<string, unknown>[]): Promise<OwnedPlaces> {
  const { gazetteer } = await loadReferenceData(db);
  const names = new Set<string>();
  let lookups = 0;
  for (const body of bodies) {
    const parsed = JobInputSchema.shape.locations.safeParse(body.locations);
    for (const { description } of (parsed.success && parsed.data) || []) {
      const resolution = resolvePlace(description, gazetteer);
      if (resolution.kind === "lookup") lookups++;
      if (resolution.kind === "lookup") names.add(resolution.nameKey);
      if (resolution.kind === "create") names.add(resolution.place.nameKey);
    }
  }
  // As for one body: only a city named alone needs the read (resolveLocations asks only then).
  const found = lookups ? await findOwnedPlaces(db, employerId, [...names]) : [];
  return async (nameKeys) => found.filter((place) => nameKeys.includes(place.nameKey));
}

/** Places the request names, each resolved; city names the gazetteer lacks are looked up among the employer's own. */
async function resolveLocations(
  ownedPlaces: OwnedPlaces,
  locations: NonNullable<JobInput["locations"]>,
  reference: ReferenceData,
): Promise<{ places: JobPlace[]; errors: FieldError[] }> {
  const errors: FieldError[] = [];
  const resolutions = locations.map((location) => resolvePlace(location.description, reference.gazetteer));
  // A city named alone may be one of the employer's own places: one lookup, which also finds
  // the places written with a code in the same request ("Smallville" and "Smallville, SK" are
  // then one place). Places written with a code need no read: the write upserts them.
  const lookups = resolutions.filter((r) => r.kind === "lookup");
  const names = resolutions.flatMap((r) => (r.kind === "lookup" ? [r.nameKey] : r.kind === "create" ? [r.place.nameKey] : []));
  const owned = lookups.length ? await ownedPlaces([...new Set(names)]) : [];
  const places: JobPlace[] = [];
  resolutions.forEach((resolution, i) => {
    const field = `locations[${i}].description`;
    if (resolution.kind === "invalid") return errors.push({ field, message: resolution.message });
    if (resolution.kind === "known") return places.push(resolution);
    const match =
      resolution.kind === "lookup"
        ? owned.find((place) => place.nameKey === resolution.nameKey)
        : owned.find((place) => place.nameKey === resolution.place.nameKey && place.provinceCode === resolution.place.provinceCode);
    if (match) {
      const { id, name, description, type, latitude, longitude } = match;
      return places.push({ kind: "known", location: { id, name, description, type, latitude, longitude } });
    }
    if (resolution.kind === "create") return places.push(resolution);
    errors.push({ field, message: unknownCityMessage(resolution.name) });
  });
  return { places, errors };
}

/** `field` names the member in errors: the French version's description is cleaned by the same rules and bounds. */
async function cleanedDescription(text: string, field: string): Promise<{ description?: string | null; errors: FieldError[] }> {
  try {
    const cleaned = await cleanDescription(text);
    // DESIGN 4: a description that cleans to nothing is stored as null, like "".
    return { description: cleaned.trim() === "" ? null : cleaned, errors: [] };
  } catch (error) {
    if (error instanceof ProblemError && error.extra.errors) {
      return { errors: error.extra.errors.map((e) => ({ ...e, field: e.field.replace(/^description/, field) })) };
    }
    throw error;
  }
}

/** The request body, parsed member by member, with its description cleaned and its places resolved. */
export async function prepareBody(
  db: Database,
  employerId: number,
  body: Record<string, unknown>,
  schema: z.ZodObject = JobInputSchema,
  ownedPlaces: OwnedPlaces = ownedPlacesOf(db, employerId),
): Promise<PreparedBody> {
  const { data, issues } = parseMembers(schema, body);
  const input = data as JobInput;
  const reference = await loadReferenceData(db);
  const [resolved, description, frenchDescription] = await Promise.all([
    input.locations ? resolveLocations(ownedPlaces, input.locations, reference) : undefined,
    sentText(input.description, "description"),
    sentText(input.translations?.fr?.description, "translations.fr.description"),
  ]);
  return {
    input,
    errors: [...toFieldErrors(issues), ...unknownTranslationErrors(body.translations), ...(resolved?.errors ?? [])],
    reference,
    places: input.locations === null ? [] : resolved?.places,
    description,
    frenchDescription,
  };
}

async function sentText(raw: string | null | undefined, field: SentText["field"]): Promise<SentText | null | undefined> {
  if (raw === undefined) return undefined;
  if (!raw) return null;
  return { field, raw, digest: await inputDigest(raw) };
}

/**
 * The request's descriptions for a merge onto `stored` (null: a new job): a text sent as the
 * stored one was sent (same digest) is the stored cleaned text; any other is cleaned, once
 * however often a concurrent change makes the merge run again.
 */
async function settleTexts(prepared: PreparedBody, stored: JobState | null): Promise<SettledTexts & { errors: FieldError[] }> {
  const settle = async (sent: SentText | null | undefined, storedDigest: string | null | undefined, storedText: string | null | undefined) => {
    if (sent === undefined) return { errors: [] };
    if (sent === null) return { description: null, digest: null, errors: [] };
    if (storedDigest === sent.digest) return { description: storedText ?? null, digest: sent.digest, errors: [] };
    sent.cleaned ??= cleanedDescription(sent.raw, sent.field);
    return { ...(await sent.cleaned), digest: sent.digest };
  };
  const [english, french] = await Promise.all([
    settle(prepared.description, stored?.descriptionDigest, stored?.description),
    settle(prepared.frenchDescription, stored?.frenchDescriptionDigest, stored?.translations?.fr.description),
  ]);
  return {
    description: english.description,
    descriptionDigest: english.digest,
    frenchDescription: french.description,
    frenchDescriptionDigest: french.digest,
    errors: [...english.errors, ...french.errors],
  };
}

/** Every error of the body on its own (no job to merge onto): its members' types, places and descriptions. */
export async function bodyErrors(prepared: PreparedBody): Promise<FieldError[]> {
  return [...prepared.errors, ...(await settleTexts(prepared, null)).errors];
}

/** The prepared body merged onto `current` (null: a new job) and checked as a whole. */
export async function evaluate(prepared: PreparedBody, current: JobState | null, now: number): Promise<Evaluation> {
  const { input, reference, places } = prepared;
  const { errors: textErrors, ...texts } = await settleTexts(prepared, current);
  const { job, conflict } = mergeJob(current, input, { now, places, ...texts });
  // A member the client got wrong (a place included) is reported once, at its own path.
  return { job, conflict, errors: mergeErrors([...prepared.errors, ...textErrors], validateJob(job, reference)) };
}
