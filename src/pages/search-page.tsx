import type { BoardListItem } from "../board/pages";
import { PROVINCES } from "../locations/provinces";
import type { ReferenceData } from "../reference/repository";
import { Layout } from "../ui/layout";
import { formatSalary } from "../ui/pay";
import { formatDate, type Lang } from "../ui/i18n";
import { categoryName, positionTypeName, WORDS } from "./i18n";
import { jobPath } from "../ui/paths";
import type { SearchForm } from "./search";
import { AlertForm } from "../alerts/pages";
import type { Sender } from "../alerts/consent";

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
  /** DESIGN 23: the alert form under the results (where it posts, and who sends), for a search with at least one criterion. */
  alerts?: { action: string; sender: Sender };
}

/** A labelled field; its error is tied to it (aria-invalid, aria-describedby). */
function Field(props: { name: keyof SearchForm; label: string; hint?: string; error?: string; children: (describedBy?: string) => unknown }) {
  const ids = [props.hint ? `${props.name}-hint` : "", props.error ? `${props.name}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      {props.hint ? <small id={`${props.name}-hint`}>{props.hint}</small> : null}
      {props.children(ids) as never}
      {props.error ? (
        <strong id={`${props.name}-error`} class="error">
          {props.error}
        </strong>
      ) : null}
    </p>
  );
}

/** A labelled select of filter values, "any" first. */
function Choice(props: { name: keyof SearchForm; label: string; any: string; chosen?: string; options: [string, string][] }) {
  return (
    <Field name={props.name} label={props.label}>
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
  const invalid = (name: keyof SearchForm) => (errors[name] ? "true" : undefined);
  // The folded filters that are set (or wrong): the <details> is open when there is one.
  const folded = FOLDED.filter((name) => form[name] || errors[name]);
  return (
    <Layout lang={lang} title={words.searchTitle} description={words.searchDescription} addresses={props.addresses}>
      <h1>{words.searchTitle}</h1>
      <form method="get" role="search">
        {/* DESIGN 23 (issue 36, pages): keywords and place in one row, so the first results show on the first screen. */}
        <div class="search-row">
          <Field name="q" label={words.keywords}>
            {() => <input id="q" name="q" type="search" value={form.q ?? ""} maxlength={200} />}
          </Field>
          <Field name="place" label={words.place} hint={words.placeHint} error={errors.place}>
            {(describedBy) => <input id="place" name="place" value={form.place ?? ""} maxlength={200} aria-invalid={invalid("place")} aria-describedby={describedBy} />}
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
            <Field name="radiusKm" label={words.radius} error={errors.radiusKm}>
              {(describedBy) => (
                <input id="radiusKm" name="radiusKm" inputmode="decimal" value={form.radiusKm ?? ""} placeholder="50" aria-invalid={invalid("radiusKm")} aria-describedby={describedBy} />
              )}
            </Field>
            <Choice name="province" label={words.province} any={words.anyProvince} chosen={form.province}
              options={PROVINCES.map((p) => [p.code, lang === "fr" ? (p.frenchName ?? p.name) : p.name])} />
            <Choice name="category" label={words.categories} any={words.anyCategory} chosen={form.category}
              options={reference.categories.map((c) => [String(c.id), categoryName(lang, c)])} />
            <Choice name="positionType" label={words.positionType} any={words.anyType} chosen={form.positionType}
              options={reference.positionTypes.map((t) => [String(t.id), positionTypeName(lang, t)])} />
            <Field name="salaryMin" label={words.salaryMin} error={errors.salaryMin}>
              {(describedBy) => <input id="salaryMin" name="salaryMin" inputmode="numeric" value={form.salaryMin ?? ""} aria-invalid={invalid("salaryMin")} aria-describedby={describedBy} />}
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
        {props.more ? (
          <p>
            <a href={props.more} rel="next">
              {words.more}
            </a>
          </p>
        ) : null}
      </section>
      {props.alerts && (["q", "place", "province", "category", "positionType", "salaryMin"] as const).some((name) => form[name]) ? (
        <AlertForm lang={lang} action={props.alerts.action} sender={props.alerts.sender}
          search={{ q: form.q, place: form.place, radiusKm: form.radiusKm, province: form.province, category: form.category, positionType: form.positionType, salaryMin: form.salaryMin }} />
      ) : null}
    </Layout>
  );
}
