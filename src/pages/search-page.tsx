import type { Child } from "hono/jsx";
import type { BoardListItem } from "../board/pages";
import type { SearchForm } from "../board/search-form";
import { PROVINCES } from "../locations/provinces";
import type { ReferenceData } from "../reference/repository";
import { Field } from "../ui/fields";
import { formatDate, type Lang } from "../ui/i18n";
import { Layout } from "../ui/layout";
import { NextPageLink } from "../ui/pagination";
import { jobPath } from "../ui/paths";
import { formatSalary } from "../ui/pay";
import { categoryName, positionTypeName, WORDS } from "./i18n";

// DESIGN 18: the search page — a GET form whose query stays in the address, results newest first,
// and a "More jobs" link carrying the cursor.

interface Props {
  lang: Lang;
  addresses: Record<Lang, string>;
  form: SearchForm;
  errors: Partial<Record<keyof SearchForm, string>>;
  reference: Pick<ReferenceData, "categories" | "positionTypes">;
  items: BoardListItem[];
  more: string | null;
  /** What another capability shows under the results (DESIGN 23: the alert form), rendered by it. */
  belowResults?: Child;
}

/** A labelled select of filter values, "any" first. */
function Choice(props: { name: keyof SearchForm; label: string; any: string; chosen?: string; options: [string, string][] }) {
  return (
    <Field id={props.name} label={props.label}>
      {() => (
        <select id={props.name} name={props.name}>
          <option value="">{props.any}</option>
          {props.options.map(([value, shown]) => (
            <option value={value} selected={props.chosen === value}>
              {shown}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The filters under "More filters"; keywords and place stay in the first row. */
const FOLDED = ["radiusKm", "province", "category", "positionType", "salaryMin"] as const;

export function SearchPage(props: Props) {
  const { lang, form, errors, reference } = props;
  const words = WORDS[lang];
  // The folded filters that are set (or wrong): the <details> is open when there is one.
  const folded = FOLDED.filter((name) => form[name] || errors[name]);
  return (
    <Layout lang={lang} title={words.searchTitle} description={words.searchDescription} addresses={props.addresses}>
      <h1>{words.searchTitle}</h1>
      <form method="get" role="search">
        {/* DESIGN 23 (issue 36, pages): keywords and place in one row, so the first results show on the first screen. */}
        <div class="search-row">
          <Field id="q" label={words.keywords}>
            {() => <input id="q" name="q" type="search" value={form.q ?? ""} maxlength={200} />}
          </Field>
          <Field id="place" label={words.place} hint={words.placeHint} error={errors.place}>
            {(aria) => <input id="place" name="place" value={form.place ?? ""} maxlength={200} {...aria} />}
          </Field>
          <p class="search-submit">
            <button type="submit">{words.submit}</button>
          </p>
        </div>
        {/* The other filters, folded (no script: <details> opens by itself), open when one is set or wrong. */}
        <details class="filters" open={folded.length > 0 || undefined}>
          <summary>
            {words.moreFilters}
            {folded.length ? ` (${words.filtersSet(folded.length)})` : ""}
          </summary>
          <div class="filter-grid">
            <Field id="radiusKm" label={words.radius} error={errors.radiusKm}>
              {(aria) => <input id="radiusKm" name="radiusKm" inputmode="decimal" value={form.radiusKm ?? ""} placeholder="50" {...aria} />}
            </Field>
            <Choice name="province" label={words.province} any={words.anyProvince} chosen={form.province}
              options={PROVINCES.map((p) => [p.code, lang === "fr" ? (p.frenchName ?? p.name) : p.name])} />
            <Choice name="category" label={words.categories} any={words.anyCategory} chosen={form.category}
              options={reference.categories.map((c) => [String(c.id), categoryName(lang, c)])} />
            <Choice name="positionType" label={words.positionType} any={words.anyType} chosen={form.positionType}
              options={reference.positionTypes.map((t) => [String(t.id), positionTypeName(lang, t)])} />
            <Field id="salaryMin" label={words.salaryMin} error={errors.salaryMin}>
              {(aria) => <input id="salaryMin" name="salaryMin" inputmode="numeric" value={form.salaryMin ?? ""} {...aria} />}
            </Field>
          </div>
          <p>
            <button type="submit">{words.applyFilters}</button>
          </p>
        </details>
      </form>
      <section aria-labelledby="results">
        <h2 id="results">{words.results}</h2>
        {props.items.length === 0 ? <p>{words.none}</p> : null}
        <ol class="results">
          {props.items.map((item) => (
            <li>
              <h3>
                <a href={jobPath(lang, item.id, item.title)}>{item.title}</a>
              </h3>
              <p>
                {item.employer?.name ?? words.confidential} · {item.locations.map((l) => l.description).join(" · ")}
                {item.distanceKm !== undefined ? ` (${item.distanceKm} ${words.km})` : ""}
              </p>
              <p>
                {[item.salary ? formatSalary(lang, item.salary) : null, item.positionType ? positionTypeName(lang, item.positionType) : null, formatDate(lang, item.publishDate)]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
              {item.summary ? <p>{item.summary}</p> : null}
            </li>
          ))}
        </ol>
        <NextPageLink href={props.more} label={words.more} />
      </section>
      {props.belowResults}
    </Layout>
  );
}
