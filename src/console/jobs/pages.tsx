import type { Child } from "hono/jsx";
import type { FieldError as ServiceError } from "../../http/problem";
import { categoryName, positionTypeName } from "../../pages/i18n";
import { POSTING_RULES, type PostingRuleOutcome } from "../../postingrules";
import type { NamedRef } from "../../reference/schemas";
import { Field, FieldError, tieToError } from "../../ui/fields";
import { formatDate, type Lang } from "../../ui/i18n";
import { jobPath } from "../../ui/paths";
import { DataTable } from "../../ui/table";
import { EditorScript } from "./editor/script";
import type { Placed } from "./fields";
import {
  differences,
  locationField,
  questionField,
  questionName,
  type ComparedMember,
  type FormProblem,
  type JobForm,
  QUESTION_MEMBERS,
  type QuestionMember,
  type QuestionRow,
} from "./form";
import { SHELL_WORDS } from "../shell";
import { RULE_TITLES_FR, WORDS } from "./words";

// DESIGN 25: the console's job pages — the list, the form with every member of the job and
// what the posting rules find beside the fields they concern, both versions after a conflict,
// the preview, the delete confirmation. Server-rendered: every action is a form; the only script,
// the description editor's (./editor), enhances the form's description textareas.

type Words = (typeof WORDS)[Lang];

/** The service's own words (English: DESIGN 19) on a page in another language, marked as English. */
const serviceText = (lang: Lang, text: string): Child => (lang === "en" ? text : <span lang="en">{text}</span>);

const ENGLISH_RULE_TITLES = new Map(POSTING_RULES.map((rule) => [rule.id, rule.title]));
const ruleTitle = (lang: Lang, rule: string) => (lang === "fr" ? RULE_TITLES_FR[rule] : undefined) ?? ENGLISH_RULE_TITLES.get(rule) ?? rule;

/** One rule's finding: its title, province, the finding and its law. */
function Finding(props: { lang: Lang; outcome: PostingRuleOutcome }) {
  const { lang, outcome } = props;
  return (
    <>
      <strong>
        {ruleTitle(lang, outcome.rule)} ({outcome.jurisdiction})
      </strong>
      : {serviceText(lang, outcome.message)}{" "}
      <a href={outcome.source} hreflang="en" rel="noopener">
        {serviceText(lang, outcome.law)}
      </a>
    </>
  );
}

// ---- The list -------------------------------------------------------------------------------

export interface ListRow {
  id: number;
  title: string | null;
  referenceId: string | null;
  status: string;
  places: string[];
  closeDate: string;
  views: number;
  applications: number;
  broken: string[];
}

export interface ListView {
  q: string;
  status: string;
  rows: ListRow[];
  page: number;
  pages: number;
  total: number;
  previous: string | null;
  next: string | null;
  errors: Placed<ServiceError>;
  deleted: boolean;
}

export function JobList(props: { lang: Lang; view: ListView }) {
  const { lang, view } = props;
  const words = WORDS[lang];
  const error = (field: string) => messagesOf(lang, view.errors.byField.get(field), []);
  const searched = view.q !== "" || view.status !== "";
  return (
    <>
      {view.deleted ? <p role="status">{words.deleted}</p> : null}
      <p>
        <a href="/employer/jobs/new">{words.newJob}</a>
      </p>
      {view.errors.elsewhere.length ? <ErrorSummary lang={lang} title={undefined} errors={view.errors.elsewhere} /> : null}
      <form method="get" action="/employer/jobs" role="search" class="search-row">
        <Field id="q" label={words.searchLabel} error={error("q")}>
          {(aria) => <input id="q" name="q" type="search" value={view.q} maxlength={256} {...aria} />}
        </Field>
        <Field id="status" label={words.statusLabel} error={error("status")}>
          {(aria) => (
            <select id="status" name="status" {...aria}>
              <option value="">{words.allStatuses}</option>
              {["active", "draft", "archived"].map((status) => (
                <option value={status} selected={view.status === status}>
                  {words.statuses[status]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <p class="search-submit">
          <button type="submit">{words.search}</button>
        </p>
      </form>
      <DataTable
        caption={words.listCaption}
        empty={searched ? words.noMatch : words.noJobs}
        rows={view.rows}
        columns={[
          { header: words.columns.title, cell: (row) => <a href={`/employer/jobs/${row.id}`}>{row.title ?? words.untitled}</a> },
          { header: words.columns.reference, cell: (row) => row.referenceId ?? "" },
          { header: words.columns.status, cell: (row) => words.statuses[row.status] ?? row.status },
          { header: words.columns.places, cell: (row) => row.places.join(" · ") },
          { header: words.columns.closes, cell: (row) => <time datetime={row.closeDate}>{formatDate(lang, row.closeDate)}</time> },
          { header: words.columns.views, cell: (row) => String(row.views) },
          { header: words.columns.applications, cell: (row) => <a href={`/employer/jobs/${row.id}/applications`}>{String(row.applications)}</a> },
          { header: words.columns.warnings, cell: (row) => (row.broken.length ? row.broken.map((rule) => ruleTitle(lang, rule)).join(" · ") : words.none) },
        ]}
      />
      {view.total ? (
        <nav aria-label={words.paging}>
          <p>{words.pageOf(view.page, view.pages, view.total)}</p>
          {view.previous || view.next ? (
            <p>
              {view.previous ? (
                <a href={view.previous} rel="prev">
                  {words.previous}
                </a>
              ) : null}{" "}
              {view.next ? (
                <a href={view.next} rel="next">
                  {words.next}
                </a>
              ) : null}
            </p>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

// ---- The form -------------------------------------------------------------------------------

/** The reference data the form offers (src/reference), and the places it suggests. */
export interface FormLists {
  categories: NamedRef[];
  positionTypes: NamedRef[];
  salaryTypes: NamedRef[];
  routingTypes: NamedRef[];
  places: string[];
}

export type Notice = "saved" | "checked" | "archived" | "published";

export interface FormView {
  form: JobForm;
  action: string;
  lists: FormLists;
  /** The saved job the form shows, with the actions on it (publish, archive, delete). */
  saved?: { id: number; status: string; title: string | null };
  /** The job being edited (absent on create). */
  jobId?: number;
  notice?: Notice;
  errors: Placed<ServiceError>;
  problems: FormProblem[];
  /** Every posting rule of the job's places, and the broken ones placed beside their fields. */
  rules?: PostingRuleOutcome[];
  warnings: Placed<PostingRuleOutcome>;
  /** Changed meanwhile (DESIGN 25): the version saved now. */
  conflict?: JobForm;
}

/** Messages beside one field: the service's (English) and the form's own. */
function messagesOf(lang: Lang, errors: ServiceError[] | undefined, problems: FormProblem[]): Child | undefined {
  const words = WORDS[lang];
  const all: Child[] = [...(errors ?? []).map((error) => serviceText(lang, error.message)), ...problems.map((problem) => words.problems[problem.problem])];
  if (all.length === 0) return undefined;
  return <>{all.map((message, i) => (i ? <> {message}</> : message))}</>;
}

function ErrorSummary(props: { lang: Lang; title: string | undefined; errors: ServiceError[]; fields?: { id: string; label: string }[] }) {
  const { lang } = props;
  return (
    <div role="alert" class="error">
      {props.title ? <p>{props.title}</p> : null}
      <ul>
        {(props.fields ?? []).map((field) => (
          <li>
            <a href={`#${field.id}`}>{field.label}</a>
          </li>
        ))}
        {props.errors.map((error) => (
          <li>
            {serviceText(lang, error.field)}: {serviceText(lang, error.message)}
          </li>
        ))}
      </ul>
    </div>
  );
}

const joinIds = (...ids: (string | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

/** The label of each control and group, in the form's order (the summary lists its links in it). */
function labelsOf(words: Words, form: JobForm): Map<string, string> {
  const f = words.fields;
  const places = Array.from({ length: Math.max(3, form.locations.length) }, (_, i): [string, string] => [locationField(i), f.location(i + 1)]);
  const questions = form.questions.flatMap((_, i): [string, string][] => [
    [questionField(i), f.question(i + 1)],
    ...QUESTION_MEMBERS.map((member): [string, string] => [questionField(i, member), `${f.question(i + 1)}: ${f[member]}`]),
  ]);
  return new Map<string, string>([
    ["title", f.title],
    ["referenceId", f.referenceId],
    ["status", f.status],
    ["closeDate", f.closeDate],
    ["locations", f.locations],
    ...places,
    ["categories", f.categories],
    ["positionType", f.positionType],
    ["salary", f.salary],
    ["salaryAmount", f.salaryAmount],
    ["salaryMaxAmount", f.salaryMaxAmount],
    ["salaryType", f.salaryType],
    ["plusCommission", f.plusCommission],
    ["description", f.description],
    ["french", f.french],
    ["frTitle", f.frTitle],
    ["frDescription", f.frDescription],
    ["applicantRoutingType", f.applicantRoutingType],
    ["applicationEmail", f.applicationEmail],
    ["applicationUrl", f.applicationUrl],
    ["confidential", f.confidential],
    ["autoRefresh", f.autoRefresh],
    ["aiUsedInSelection", f.aiUsedInSelection],
    ["existingVacancy", f.existingVacancy],
    ["questions", f.questions],
    ...questions,
  ]);
}

/** The rows a question table shows: those typed, then empty ones to add, up to 20 in all. */
const EMPTY_ROW: QuestionRow = { key: "", text: "", type: "yesNo", required: false, options: "", knockoutAnswer: "", knockout: "", maxLength: "", min: "", max: "" };
const NEW_QUESTION_ROWS = 2;
const MAX_QUESTION_ROWS = 20;

export function JobFormView(props: { lang: Lang; view: FormView }) {
  const { lang, view } = props;
  const { form, lists } = view;
  const words = WORDS[lang];
  const f = words.fields;
  const problemsOf = (id: string) => view.problems.filter((problem) => problem.field === id);
  const errorOf = (id: string) => messagesOf(lang, view.errors.byField.get(id), problemsOf(id));
  const warningsOf = (id: string) => view.warnings.byField.get(id);
  const warningId = (id: string) => (warningsOf(id) ? `${id}-warning` : undefined);

  const Warning = (p: { id: string }) => {
    const outcomes = warningsOf(p.id);
    return outcomes ? (
      <ul class="warning" id={`${p.id}-warning`}>
        {outcomes.map((outcome) => (
          <li>
            <Finding lang={lang} outcome={outcome} />
          </li>
        ))}
      </ul>
    ) : null;
  };

  /** A labelled control, its problem and the posting rules it breaks beside it. */
  const Control = (p: { id: string; label: Child; hint?: string; children: (aria: Record<string, string | undefined>) => Child }) => (
    <>
      <Field id={p.id} label={p.label} hint={p.hint} error={errorOf(p.id)}>
        {(aria) => p.children({ ...aria, "aria-describedby": joinIds(aria["aria-describedby"], warningId(p.id)) })}
      </Field>
      <Warning id={p.id} />
    </>
  );

  const Checkbox = (p: { id: string; name: string; label: string; checked: boolean }) => {
    const error = errorOf(p.id);
    return (
      <>
        <p>
          <input type="checkbox" id={p.id} name={p.name} value="true" checked={p.checked} {...tieToError(p.id, error)} /> <label for={p.id}>{p.label}</label>{" "}
          <FieldError id={p.id} message={error} inline />
        </p>
        <Warning id={p.id} />
      </>
    );
  };

  /** A group of controls: legend, hint, the controls, then its problem and the rules it breaks. */
  const Group = (p: { id: string; legend: string; hint?: string; children: Child }) => {
    const error = errorOf(p.id);
    return (
      <fieldset
        id={p.id}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={joinIds(p.hint ? `${p.id}-hint` : undefined, error ? `${p.id}-error` : undefined, warningId(p.id))}
      >
        <legend>{p.legend}</legend>
        {p.hint ? <small id={`${p.id}-hint`}>{p.hint}</small> : null}
        {p.children}
        <FieldError id={p.id} message={error} />
        <Warning id={p.id} />
      </fieldset>
    );
  };

  const Choice = (p: { id: string; name: string; label: string; hint?: string; value: string; options: [string, string][]; empty?: string }) => (
    <Control id={p.id} label={p.label} hint={p.hint}>
      {(aria) => (
        <select id={p.id} name={p.name} {...aria}>
          {p.empty !== undefined ? <option value="">{p.empty}</option> : null}
          {p.options.map(([value, label]) => (
            <option value={value} selected={p.value === value}>
              {label}
            </option>
          ))}
        </select>
      )}
    </Control>
  );

  const yesNo: [string, string][] = [
    ["true", f.yes],
    ["false", f.no],
  ];
  const statuses = ["draft", "active", ...(form.status === "archived" ? ["archived"] : [])];
  const locations = [...form.locations, ...Array<string>(Math.max(0, 3 - form.locations.length)).fill("")];
  const questionRows = [...form.questions, ...Array<QuestionRow>(Math.max(0, Math.min(NEW_QUESTION_ROWS, MAX_QUESTION_ROWS - form.questions.length))).fill(EMPTY_ROW)];
  const labels = labelsOf(words, form);
  const broken = new Set([...view.errors.byField.keys(), ...view.problems.map((problem) => problem.field)]);
  const brokenFields = [...labels.keys()].filter((id) => broken.has(id));
  const failed = brokenFields.length > 0 || view.errors.elsewhere.length > 0;

  return (
    <>
      {view.notice ? <p role="status">{view.notice === "saved" ? SHELL_WORDS[lang].saved : words.notices[view.notice]}</p> : null}
      {failed ? (
        <ErrorSummary lang={lang} title={words.notSaved} errors={view.errors.elsewhere} fields={brokenFields.map((id) => ({ id, label: labels.get(id) ?? id }))} />
      ) : null}
      {view.conflict ? <Conflict lang={lang} typed={form} saved={view.conflict} lists={lists} /> : null}
      {view.rules ? <Rules lang={lang} rules={view.rules} elsewhere={view.warnings.elsewhere} /> : null}

      <form method="post" action={view.action}>
        {form.ifMatch ? <input type="hidden" name="ifMatch" value={form.ifMatch} /> : null}
        {form.closesAt ? <input type="hidden" name="closesAt" value={form.closesAt} /> : null}
        <Control id="title" label={f.title}>
          {(aria) => <input id="title" name="title" value={form.title} maxlength={256} {...aria} />}
        </Control>
        <Control id="referenceId" label={f.referenceId} hint={f.referenceIdHint}>
          {(aria) => <input id="referenceId" name="referenceId" value={form.referenceId} maxlength={50} {...aria} />}
        </Control>
        <Choice id="status" name="status" label={f.status} value={form.status || "draft"} options={statuses.map((status) => [status, words.statuses[status]])} />
        <Control id="closeDate" label={f.closeDate} hint={f.closeDateHint}>
          {(aria) => <input id="closeDate" name="closeDate" type="date" value={form.closeDate} {...aria} />}
        </Control>

        <Group id="locations" legend={f.locations} hint={f.locationHint}>
          {locations.map((place, i) => (
            <Control id={locationField(i)} label={f.location(i + 1)}>
              {(aria) => <input id={locationField(i)} name="location" value={place} list="place-suggestions" maxlength={300} autocomplete="off" {...aria} />}
            </Control>
          ))}
          <datalist id="place-suggestions">
            {lists.places.map((place) => (
              <option value={place} />
            ))}
          </datalist>
        </Group>

        <Group id="categories" legend={f.categories}>
          {lists.categories.map((category) => (
            <label>
              <input type="checkbox" name="category" value={String(category.id)} checked={form.categories.includes(String(category.id))} /> {categoryName(lang, category)}
            </label>
          ))}
        </Group>

        <Choice
          id="positionType"
          name="positionType"
          label={f.positionType}
          value={form.positionType}
          empty={f.none}
          options={lists.positionTypes.map((type) => [String(type.id), positionTypeName(lang, type)])}
        />

        <Group id="salary" legend={f.salary}>
          <Control id="salaryAmount" label={f.salaryAmount} hint={f.amountHint}>
            {(aria) => <input id="salaryAmount" name="salaryAmount" inputmode="decimal" value={form.salaryAmount} maxlength={20} {...aria} />}
          </Control>
          <Control id="salaryMaxAmount" label={f.salaryMaxAmount}>
            {(aria) => <input id="salaryMaxAmount" name="salaryMaxAmount" inputmode="decimal" value={form.salaryMaxAmount} maxlength={20} {...aria} />}
          </Control>
          <Choice
            id="salaryType"
            name="salaryType"
            label={f.salaryType}
            value={form.salaryType}
            empty={f.none}
            options={lists.salaryTypes.map((type) => [String(type.id), words.salaryTypes[type.id] ?? type.name])}
          />
          <Checkbox id="plusCommission" name="plusCommission" label={f.plusCommission} checked={form.plusCommission} />
        </Group>

        <Control id="description" label={f.description} hint={f.descriptionHint}>
          {(aria) => (
            <textarea id="description" name="description" rows={12} data-rich-text="html" {...aria}>
              {form.description}
            </textarea>
          )}
        </Control>

        <Group id="french" legend={f.french} hint={f.frenchHint}>
          <Control id="frTitle" label={f.frTitle}>
            {(aria) => <input id="frTitle" name="frTitle" lang="fr" value={form.frTitle} maxlength={256} {...aria} />}
          </Control>
          <Control id="frDescription" label={f.frDescription}>
            {(aria) => (
              <textarea id="frDescription" name="frDescription" lang="fr" rows={8} data-rich-text="html" {...aria}>
                {form.frDescription}
              </textarea>
            )}
          </Control>
        </Group>

        <EditorScript lang={lang} />

        <Group id="application" legend={f.application}>
          <Choice
            id="applicantRoutingType"
            name="applicantRoutingType"
            label={f.applicantRoutingType}
            value={form.applicantRoutingType}
            empty={f.none}
            options={lists.routingTypes.map((type) => [String(type.id), words.routingTypes[type.id] ?? type.name])}
          />
          <Control id="applicationEmail" label={f.applicationEmail}>
            {(aria) => <input id="applicationEmail" name="applicationEmail" type="email" value={form.applicationEmail} maxlength={50} {...aria} />}
          </Control>
          <Control id="applicationUrl" label={f.applicationUrl} hint={f.applicationUrlHint}>
            {(aria) => <input id="applicationUrl" name="applicationUrl" type="url" value={form.applicationUrl} maxlength={200} {...aria} />}
          </Control>
        </Group>

        <Checkbox id="confidential" name="confidential" label={f.confidential} checked={form.confidential} />
        <Checkbox id="autoRefresh" name="autoRefresh" label={f.autoRefresh} checked={form.autoRefresh} />
        <Choice id="aiUsedInSelection" name="aiUsedInSelection" label={f.aiUsedInSelection} hint={f.disclosuresHint} value={form.aiUsedInSelection} empty={f.notSaid} options={yesNo} />
        <Choice id="existingVacancy" name="existingVacancy" label={f.existingVacancy} hint={f.disclosuresHint} value={form.existingVacancy} empty={f.notSaid} options={yesNo} />

        <Group id="questions" legend={f.questions} hint={f.questionsHint}>
          {questionRows.map((row, i) => {
            const id = (member: QuestionMember) => questionField(i, member);
            const name = (member: QuestionMember) => questionName(i, member);
            return (
              <Group id={questionField(i)} legend={f.question(i + 1)}>
                <Control id={id("key")} label={f.key} hint={f.keyHint}>
                  {(aria) => <input id={id("key")} name={name("key")} value={row.key} maxlength={40} {...aria} />}
                </Control>
                <Control id={id("text")} label={f.text}>
                  {(aria) => <input id={id("text")} name={name("text")} value={row.text} maxlength={500} {...aria} />}
                </Control>
                <Choice id={id("type")} name={name("type")} label={f.type} value={row.type} options={Object.entries(words.questionTypes)} />
                <Checkbox id={id("required")} name={name("required")} label={f.required} checked={row.required} />
                <Control id={id("options")} label={f.options} hint={f.optionsHint}>
                  {(aria) => (
                    <textarea id={id("options")} name={name("options")} rows={3} {...aria}>
                      {row.options}
                    </textarea>
                  )}
                </Control>
                <Choice
                  id={id("knockoutAnswer")}
                  name={name("knockoutAnswer")}
                  label={f.knockoutAnswer}
                  value={row.knockoutAnswer}
                  empty={f.none}
                  options={[
                    ["true", f.screensOutYes],
                    ["false", f.screensOutNo],
                  ]}
                />
                <Control id={id("knockout")} label={f.knockout}>
                  {(aria) => (
                    <textarea id={id("knockout")} name={name("knockout")} rows={2} {...aria}>
                      {row.knockout}
                    </textarea>
                  )}
                </Control>
                <Control id={id("maxLength")} label={f.maxLength} hint={f.maxLengthHint}>
                  {(aria) => <input id={id("maxLength")} name={name("maxLength")} inputmode="numeric" value={row.maxLength} maxlength={10} {...aria} />}
                </Control>
                <Control id={id("min")} label={f.min} hint={f.numberHint}>
                  {(aria) => <input id={id("min")} name={name("min")} inputmode="decimal" value={row.min} maxlength={30} {...aria} />}
                </Control>
                <Control id={id("max")} label={f.max}>
                  {(aria) => <input id={id("max")} name={name("max")} inputmode="decimal" value={row.max} maxlength={30} {...aria} />}
                </Control>
              </Group>
            );
          })}
        </Group>

        <p>
          {/* Save first: Enter in a field saves (a form's default button is its first). */}
          <button type="submit">{words.save}</button>{" "}
          <button type="submit" name="check" value="1">
            {words.check}
          </button>
        </p>
      </form>
      {view.jobId !== undefined ? <JobActions lang={lang} jobId={view.jobId} saved={view.saved} /> : null}
    </>
  );
}

/** The saved job's other pages and moves: preview, applications, publish or archive, delete. */
function JobActions(props: { lang: Lang; jobId: number; saved?: FormView["saved"] }) {
  const { lang, jobId, saved } = props;
  const words = WORDS[lang];
  const base = `/employer/jobs/${jobId}`;
  const move = saved ? (saved.status === "active" ? ["archive", words.archive] : ["publish", saved.status === "archived" ? words.republish : words.publish]) : undefined;
  return (
    <section aria-labelledby="actions-title">
      <h2 id="actions-title">{words.actions}</h2>
      <ul>
        <li>
          <a href={`${base}/preview`}>{words.preview}</a>
        </li>
        <li>
          <a href={`${base}/applications`}>{words.applications}</a>
        </li>
        {saved?.status === "active" ? (
          <li>
            <a href={jobPath(lang, jobId, saved.title)}>{words.boardPage}</a>
          </li>
        ) : null}
      </ul>
      {move ? (
        <form method="post" action={`${base}/${move[0]}`}>
          <button type="submit">{move[1]}</button>
        </form>
      ) : null}
      {saved ? <DeleteForm lang={lang} jobId={jobId} /> : null}
    </section>
  );
}

/** Delete, asked twice: a box to tick, then the button (DESIGN 25). */
function DeleteForm(props: { lang: Lang; jobId: number; error?: string }) {
  const words = WORDS[props.lang];
  return (
    <form method="post" action={`/employer/jobs/${props.jobId}/delete`}>
      <h3>{words.deleteTitle}</h3>
      <p id="delete-text">{words.deleteText}</p>
      <p>
        <input type="checkbox" id="confirm" name="confirm" value="yes" aria-describedby={joinIds("delete-text", props.error ? "confirm-error" : undefined)} aria-invalid={props.error ? "true" : undefined} />{" "}
        <label for="confirm">{words.deleteConfirm}</label> <FieldError id="confirm" message={props.error} inline />
      </p>
      <button type="submit" class="danger">
        {words.deleteButton}
      </button>
    </form>
  );
}

/** DESIGN 25a: delete without `confirm=yes` — asked again, nothing deleted. */
export function DeleteConfirmation(props: { lang: Lang; jobId: number }) {
  const words = WORDS[props.lang];
  return (
    <>
      <DeleteForm lang={props.lang} jobId={props.jobId} error={words.deleteUnconfirmed} />
      <p>
        <a href={`/employer/jobs/${props.jobId}`}>{words.backToJob}</a>
      </p>
    </>
  );
}

function Rules(props: { lang: Lang; rules: PostingRuleOutcome[]; elsewhere: PostingRuleOutcome[] }) {
  const { lang, rules } = props;
  const words = WORDS[lang];
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">{words.rulesTitle}</h2>
      {props.elsewhere.length ? (
        <div class="warning">
          <p>{words.rulesElsewhere}</p>
          <ul>
            {props.elsewhere.map((outcome) => (
              <li>
                <Finding lang={lang} outcome={outcome} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p>{words.rulesIntro}</p>
      <DataTable
        caption={words.rulesCaption}
        empty={words.rulesNone}
        rows={rules}
        columns={[
          { header: words.ruleColumns.rule, cell: (outcome) => ruleTitle(lang, outcome.rule) },
          { header: words.ruleColumns.jurisdiction, cell: (outcome) => outcome.jurisdiction },
          { header: words.ruleColumns.status, cell: (outcome) => words.ruleStatuses[outcome.status] },
          {
            header: words.ruleColumns.finding,
            cell: (outcome) => (
              <>
                {serviceText(lang, outcome.message)}{" "}
                <a href={outcome.source} hreflang="en" rel="noopener">
                  {serviceText(lang, outcome.law)}
                </a>
              </>
            ),
          },
        ]}
      />
    </section>
  );
}

/** A member of the form as a person reads it. */
function shown(words: Words, lang: Lang, lists: FormLists, form: JobForm, member: ComparedMember): string {
  const nameIn = (list: NamedRef[], id: string, name: (ref: NamedRef) => string) => {
    const found = list.find((ref) => String(ref.id) === id);
    return found ? name(found) : id;
  };
  const yesNo = (value: string) => (value === "true" ? words.fields.yes : value === "false" ? words.fields.no : words.fields.notSaid);
  const value = form[member];
  switch (member) {
    case "status":
      return words.statuses[form.status] ?? form.status;
    case "locations":
      return form.locations.join(" · ");
    case "categories":
      return form.categories.map((id) => nameIn(lists.categories, id, (ref) => categoryName(lang, ref))).join(" · ");
    case "positionType":
      return form.positionType && nameIn(lists.positionTypes, form.positionType, (ref) => positionTypeName(lang, ref));
    case "salaryType":
      return form.salaryType && (words.salaryTypes[Number(form.salaryType)] ?? form.salaryType);
    case "applicantRoutingType":
      return form.applicantRoutingType && (words.routingTypes[Number(form.applicantRoutingType)] ?? form.applicantRoutingType);
    case "aiUsedInSelection":
    case "existingVacancy":
      return yesNo(form[member]);
    case "questions":
      return form.questions.map((question) => question.text).join(" · ");
    default:
      return typeof value === "boolean" ? (value ? words.fields.yes : words.fields.no) : String(value);
  }
}

/** DESIGN 25: changed meanwhile — both versions, where they differ. */
function Conflict(props: { lang: Lang; typed: JobForm; saved: JobForm; lists: FormLists }) {
  const { lang, typed, saved, lists } = props;
  const words = WORDS[lang];
  const labels = labelsOf(words, typed);
  return (
    <section aria-labelledby="conflict-title" class="warning">
      <h2 id="conflict-title">{words.conflictTitle}</h2>
      <p>{words.conflictText}</p>
      <DataTable
        caption={words.conflictCaption}
        empty={words.conflictSame}
        rows={differences(typed, saved)}
        columns={[
          { header: words.conflictField, cell: (member) => labels.get(member) ?? member },
          { header: words.yourVersion, cell: (member) => shown(words, lang, lists, typed, member) },
          { header: words.savedVersion, cell: (member) => shown(words, lang, lists, saved, member) },
        ]}
      />
    </section>
  );
}

// ---- The preview ----------------------------------------------------------------------------

/**
 * The preview (DESIGN 25): the board's own job page (`children`: handed to the console by the
 * composition root, src/app.ts) in the console's shell, in the language asked, said to be a preview.
 */
export function JobPreview(props: { lang: Lang; jobId: number; children: Child }) {
  const { lang } = props;
  const words = WORDS[lang];
  const other: Lang = lang === "en" ? "fr" : "en";
  return (
    <div lang={lang}>
      <p>{words.previewNote}</p>
      <p>
        <a href={`/employer/jobs/${props.jobId}/preview?lang=${other}`} hreflang={other}>
          {words.previewOther}
        </a>{" "}
        · <a href={`/employer/jobs/${props.jobId}`}>{words.backToJob}</a>
      </p>
      {props.children}
    </div>
  );
}
