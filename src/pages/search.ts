import type { PageSearch } from "../board/pages";
import { resolvePlace } from "../locations/resolve";
import { PROVINCES } from "../locations/provinces";
import type { GazetteerPlace } from "../reference/repository";
import type { Lang } from "../ui/i18n";
import { WORDS } from "./i18n";

// DESIGN 18, 18a: the search form's values, as typed, checked and turned into the board's
// filters. Pure: the place is resolved against the gazetteer the caller loaded.

export const RESULTS_PER_PAGE = 20;
const DEFAULT_RADIUS_KM = 50;
const FORM_FIELDS = ["q", "place", "radiusKm", "province", "category", "positionType", "salaryMin", "cursor"] as const;
export type SearchForm = Partial<Record<(typeof FORM_FIELDS)[number], string>>;

/** The form's values from the address (each once, at most 200 characters). */
export function formOf(query: Record<string, string | undefined>): SearchForm {
  return Object.fromEntries(FORM_FIELDS.flatMap((field) => (query[field] ? [[field, query[field]!.slice(0, 200)]] : []))) as SearchForm;
}

const id = (text: string | undefined) => (text && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : undefined);

/** The board search the form asks for, or the message for each field it cannot take. */
export function searchOf(form: SearchForm, lang: Lang, gazetteer: GazetteerPlace[]): { search: PageSearch; errors: Partial<Record<keyof SearchForm, string>> } {
  const words = WORDS[lang];
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

/** The address of the next page: the same search, and the cursor. */
export function nextPageAddress(path: string, form: SearchForm, next: string): string {
  const params = new URLSearchParams(Object.entries({ ...form, cursor: next }).filter(([, value]) => value) as [string, string][]);
  return `${path}?${params}`;
}
