import { resolvePlace } from "../locations/resolve";
import { PROVINCES } from "../locations/provinces";
import type { GazetteerPlace } from "../reference/repository";
import type { Lang } from "../ui/i18n";
import type { PageSearch } from "./pages";

// DESIGN 18, 18a, 23: the board's search as a person types it — the search pages' form, and the
// alert form under the results that carries the same fields — checked and turned into the board's
// filters. One reading for both, so an alert asks exactly what the page showed. Pure: the place is
// resolved against the gazetteer the caller loaded.

const DEFAULT_RADIUS_KM = 50;
const FORM_FIELDS = ["q", "place", "radiusKm", "province", "category", "positionType", "salaryMin", "cursor"] as const;
export type SearchForm = Partial<Record<(typeof FORM_FIELDS)[number], string>>;

/** What the form says of a value it cannot take, next to its field. */
const MESSAGES = {
  en: {
    unknownPlace: "We do not know this place. Try a city or town, such as Vancouver or Vancouver, BC.",
    badRadius: "Enter a distance from 1 to 500 km.",
    badSalary: "Enter a yearly amount in dollars, such as 60000.",
  },
  fr: {
    unknownPlace: "Nous ne connaissons pas ce lieu. Essayez une ville ou un village, comme Montréal ou Montréal, QC.",
    badRadius: "Entrez une distance de 1 à 500 km.",
    badSalary: "Entrez un montant annuel en dollars, comme 60000.",
  },
} as const;

/** The form's values from the address (each once, at most 200 characters). */
export function formOf(query: Record<string, string | undefined>): SearchForm {
  return Object.fromEntries(FORM_FIELDS.flatMap((field) => (query[field] ? [[field, query[field]!.slice(0, 200)]] : []))) as SearchForm;
}

const id = (text: string | undefined) => (text && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : undefined);

/** The board search the form asks for, or the message for each field it cannot take. */
export function searchOf(form: SearchForm, lang: Lang, gazetteer: GazetteerPlace[]): { search: PageSearch; errors: Partial<Record<keyof SearchForm, string>> } {
  const words = MESSAGES[lang];
  const errors: Partial<Record<keyof SearchForm, string>> = {};
  const search: PageSearch = { q: form.q, cursor: form.cursor, categoryId: id(form.category), positionTypeId: id(form.positionType) };
  if (form.province && PROVINCES.some((p) => p.code === form.province)) search.provinceCode = form.province;
  let radiusKm = DEFAULT_RADIUS_KM;
  if (form.radiusKm) {
    const value = Number(form.radiusKm);
    if (/^[0-9]{1,3}(\.[0-9]{1,3})?$/.test(form.radiusKm) && value >= 1 && value <= 500) radiusKm = value;
    else errors.radiusKm = words.badRadius;
  }
  if (form.salaryMin) {
    if (/^[0-9]{1,8}$/.test(form.salaryMin)) search.salaryMin = Number(form.salaryMin);
    else errors.salaryMin = words.badSalary;
  }
  if (form.place) {
    const resolved = resolvePlace(form.place, gazetteer);
    if (resolved.kind !== "known") errors.place = words.unknownPlace;
    else if (resolved.location.type === "Province") search.provinceCode = PROVINCES[resolved.location.id - 1]?.code ?? search.provinceCode;
    else if (resolved.location.latitude === null) search.locationId = resolved.location.id;
    else search.near = { placeId: resolved.location.id, radiusKm };
  }
  return { search, errors };
}
