import { formOf, searchOf } from "../board/search-form";
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { loadReferenceData } from "../reference/repository";
import type { Lang } from "../ui/i18n";
import type { AlertSearch } from "./rules";

// DESIGN 23: the search pages' alert form carries the search as it stands (the search form's own
// fields); this turns them into an alert's search with the rules the search page reads them by
// (the board's, src/board/search-form.ts: a place by name, as the page resolves it), so the alert
// asks exactly what the page showed.

export async function alertSearchOfForm(
  env: Pick<Env, "DB">,
  lang: Lang,
  fields: Record<string, string>,
): Promise<{ search: AlertSearch; placeName: string | null; errors: string | null }> {
  const form = formOf(fields);
  const reference = await loadReferenceData(createDatabase(env.DB));
  const { search: page, errors } = searchOf(form, lang, reference.gazetteer);
  const search: AlertSearch = {};
  if (page.q?.trim()) search.q = page.q.trim();
  if (page.near) {
    search.near = page.near.placeId;
    if (form.radiusKm) search.radiusKm = page.near.radiusKm;
  }
  if (page.provinceCode) search.province = page.provinceCode;
  if (page.categoryId !== undefined) search.category = page.categoryId;
  if (page.positionTypeId !== undefined) search.positionType = page.positionTypeId;
  if (page.salaryMin !== undefined) search.salaryMin = page.salaryMin;
  const messages = Object.values(errors);
  // A place the page filters by id alone (one with no point) has no radius to alert on.
  if (page.locationId !== undefined) messages.push(lang === "fr" ? "Choisissez une ville avec des coordonnées pour une alerte." : "Choose a city with coordinates for an alert.");
  const placeName = page.near ? (form.place ?? null) : null;
  return { search, placeName, errors: messages.length ? messages.join(" ") : null };
}
