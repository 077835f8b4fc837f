import type { GazetteerPlace } from "../reference/repository";
import type { Location } from "../reference/schemas";
import { codePoints } from "../http/limits";
import { placeKey } from "../reference/place-key";
import { PROVINCES, provinceCode } from "./provinces";

/**
 * Where a location `description` of a job request leads (DESIGN section 3):
 * - `known`: a seeded place (or a province);
 * - `create`: a valid Canadian City + code nobody has used yet: upserted with the job;
 * - `lookup`: a city name alone that the gazetteer lacks; it may exist as a place another
 *   employer created, which only the database knows;
 * - `invalid`: with the message for the client.
 */
export type PlaceResolution =
  | { kind: "known"; location: Location }
  | { kind: "create"; place: NewPlace }
  | { kind: "lookup"; name: string; nameKey: string }
  | { kind: "invalid"; message: string };

export interface NewPlace {
  name: string;
  description: string;
  provinceCode: string;
  nameKey: string;
}

export const MAX_PLACE_NAME = 256;
// Letters (any script, with accents), digits, spaces and the punctuation real place names
// use: `Saint-Jean-sur-Richelieu`, `St. John's`, `Rivière-du-Loup`, `Lac-Brome (Knowlton)`.
// No markup characters, no controls.
const PLACE_NAME = /^[\p{L}\p{M}\p{N} .'’\-&()]+$/u;

interface GazetteerIndex {
  byKeyAndCode: Map<string, GazetteerPlace>;
  byKey: Map<string, GazetteerPlace>;
  provinces: Map<string, GazetteerPlace>;
}

const indexes = new WeakMap<GazetteerPlace[], GazetteerIndex>();

const rankOf = (place: GazetteerPlace) => place.populationRank ?? Number.MAX_SAFE_INTEGER;

function indexOf(gazetteer: GazetteerPlace[]): GazetteerIndex {
  let index = indexes.get(gazetteer);
  if (index) return index;
  index = { byKeyAndCode: new Map(), byKey: new Map(), provinces: new Map() };
  for (const place of gazetteer) {
    if (place.type === "Province") {
      index.provinces.set(place.provinceCode, place);
      continue;
    }
    const keyed = `${place.nameKey}|${place.provinceCode}`;
    const sameKeyAndCode = index.byKeyAndCode.get(keyed);
    if (!sameKeyAndCode || rankOf(place) < rankOf(sameKeyAndCode)) index.byKeyAndCode.set(keyed, place);
    // City alone: the most populous place of that name wins, deterministically.
    const sameName = index.byKey.get(place.nameKey);
    if (!sameName || rankOf(place) < rankOf(sameName) || (rankOf(place) === rankOf(sameName) && place.id < sameName.id)) {
      index.byKey.set(place.nameKey, place);
    }
  }
  indexes.set(gazetteer, index);
  return index;
}

const asLocation = ({ id, name, description, type, latitude, longitude }: GazetteerPlace): Location => ({
  id,
  name,
  description,
  type,
  latitude,
  longitude,
});

function checkCityName(name: string): string | undefined {
  const length = codePoints(name);
  if (length === 0) return "Give a city name before the comma, e.g. \"Kelowna, BC\".";
  if (length > MAX_PLACE_NAME) return `The city name must be at most ${MAX_PLACE_NAME} characters.`;
  if (!/\p{L}/u.test(name) || !PLACE_NAME.test(name)) {
    return "The city name may contain only letters, digits, spaces and . ' - & ( ).";
  }
  return undefined;
}

const CODES = PROVINCES.map((p) => p.code).join(", ");

/** `City`, `City, PC` (code or English/French name) or a province alone. */
export function resolvePlace(description: string, gazetteer: GazetteerPlace[]): PlaceResolution {
  const index = indexOf(gazetteer);
  const text = description.replace(/\s+/g, " ").trim();
  const comma = text.lastIndexOf(",");

  if (comma < 0) {
    const code = provinceCode(text);
    const province = code && index.provinces.get(code);
    if (province) return { kind: "known", location: asLocation(province) };
    const problem = checkCityName(text);
    if (problem) return { kind: "invalid", message: problem };
    const key = placeKey(text);
    const known = index.byKey.get(key);
    return known ? { kind: "known", location: asLocation(known) } : { kind: "lookup", name: text, nameKey: key };
  }

  const name = text.slice(0, comma).trim();
  const provinceText = text.slice(comma + 1).trim();
  const code = provinceCode(provinceText);
  if (!code) {
    return { kind: "invalid", message: `"${provinceText}" is not a Canadian province or territory; use one of ${CODES}.` };
  }
  const key = placeKey(name);
  const known = index.byKeyAndCode.get(`${key}|${code}`);
  if (known) return { kind: "known", location: asLocation(known) };
  // "Ontario, ON": the province itself.
  const province = index.provinces.get(code);
  if (province && provinceCode(name) === code) return { kind: "known", location: asLocation(province) };
  const problem = checkCityName(name);
  if (problem) return { kind: "invalid", message: problem };
  return { kind: "create", place: { name, description: `${name}, ${code}`, provinceCode: code, nameKey: key } };
}

/** Spec: "Including both city and province code avoids ambiguity." */
export function unknownCityMessage(name: string): string {
  return `"${name}" is not a place we know; add the province code, e.g. "${name}, ON".`;
}
