import type { Child } from "hono/jsx";
import { APPLICATION_STATUSES, isFinal } from "../../applications/pipeline";
import type { applicationWithHistory } from "../../applications/service";
import { matchesKnockout, type Answer, type Question } from "../../screening";
import { Field, FieldError } from "../../ui/fields";
import { formatDate, formatDateTime, type Lang } from "../../ui/i18n";
import { DataTable } from "../../ui/table";
import type { ListErrors, ListFilters, MoveErrors, MoveForm } from "./form";
import type { Words } from "./words";

// DESIGN 25: the application pages — a list (all the employer's, or one job's) with its filters
// and pages, and one application with its answers, knockout results, history and the move form.
// No script: filters are a GET form, a move is a POST form.

type Loaded = Awaited<ReturnType<typeof applicationWithHistory>>;
type Application = Loaded["application"];

export const applicationPath = (id: number) => `/employer/applications/${id}`;
const jobPath = (id: number) => `/employer/jobs/${id}`;

/** A time as a person reads it, and as a machine does. */
const When = (props: { lang: Lang; iso: string; withTime?: boolean }) => <time datetime={props.iso}>{(props.withTime ? formatDateTime : formatDate)(props.lang, props.iso)}</time>;

export interface ListProps {
  lang: Lang;
  words: Words;
  /** This list's path: the filter form's action and its pages' links. */
  path: string;
  filters: ListFilters;
  errors: ListErrors;
  /** Absent when the filters are refused (nothing is listed). */
  result?: { rows: Application[]; total: number; page: number; pageSize: number };
  titles: Map<number, string | null>;
  /** The one job of a job's list. */
  job?: { id: number; title: string };
}

export function ApplicationList(props: ListProps) {
  const { words } = props;
  const titleOf = (jobId: number) => props.job?.title ?? props.titles.get(jobId) ?? words.untitled(jobId);
  return (
    <>
      {props.job ? (
        <p>
          <a href={jobPath(props.job.id)}>{props.job.title}</a> · <a href="/employer/applications">{words.allApplications}</a>
        </p>
      ) : null}
      <Filters {...props} />
      {props.result ? (
        <>
          <DataTable
            caption={words.caption(props.result.total)}
            empty={words.empty}
            rows={props.result.rows}
            columns={[
              { header: words.applicant, cell: (row) => <a href={applicationPath(row.id)}>{row.name ?? words.erased}</a> },
              { header: words.job, cell: (row) => <a href={jobPath(row.jobId)}>{titleOf(row.jobId)}</a> },
              { header: words.received, cell: (row) => <When lang={props.lang} iso={row.receivedAt} /> },
              { header: words.status, cell: (row) => words.statuses[row.status] },
              { header: words.knockout, cell: (row) => (row.screenedOut ? words.screenedOut : words.passed) },
            ]}
          />
          <Pages {...props} {...props.result} />
        </>
      ) : null}
    </>
  );
}

function Filters(props: ListProps) {
  const { words, filters, errors } = props;
  return (
    <form method="get" action={props.path}>
      <div class="search-row">
        <Field id="status" label={words.status} error={errors.status}>
          {(aria) => (
            <select id="status" name="status" {...aria}>
              <option value="">{words.anyStatus}</option>
              {APPLICATION_STATUSES.map((status) => (
                <option value={status} selected={filters.status === status}>
                  {words.statuses[status]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="screenedOut" label={words.knockout} error={errors.screenedOut}>
          {(aria) => (
            <select id="screenedOut" name="screenedOut" {...aria}>
              <option value="">{words.anyKnockout}</option>
              <option value="true" selected={filters.screenedOut === "true"}>
                {words.screenedOut}
              </option>
              <option value="false" selected={filters.screenedOut === "false"}>
                {words.passed}
              </option>
            </select>
          )}
        </Field>
        {filters.pageSize ? <input type="hidden" name="pageSize" value={filters.pageSize} /> : null}
        <p class="search-submit">
          <button type="submit">{words.filters}</button>
        </p>
      </div>
    </form>
  );
}

/** Page n of m, with the previous and next pages' links (the same filters). */
function Pages(props: ListProps & { total: number; page: number; pageSize: number }) {
  const pages = Math.ceil(props.total / props.pageSize);
  if (pages <= 1 && props.page === 1) return null;
  const { status, screenedOut, pageSize } = props.filters;
  const linkTo = (page: number) =>
    `${props.path}?${new URLSearchParams(Object.entries({ status, screenedOut, pageSize, page: String(page) }).filter(([, value]) => value) as [string, string][])}`;
  return (
    <nav aria-label={props.words.pages}>
      <p>
        {props.words.page(props.page, Math.max(pages, 1))}
        {props.page > 1 ? (
          <>
            {" · "}
            <a href={linkTo(Math.min(props.page - 1, Math.max(pages, 1)))} rel="prev">
              {props.words.previous}
            </a>
          </>
        ) : null}
        {props.page < pages ? (
          <>
            {" · "}
            <a href={linkTo(props.page + 1)} rel="next">
              {props.words.next}
            </a>
          </>
        ) : null}
      </p>
    </nav>
  );
}

export interface ApplicationProps {
  lang: Lang;
  words: Words;
  loaded: Loaded;
  job: { id: number; title: string; questions: Question[] };
  form: MoveForm;
  errors: MoveErrors;
}

export function ApplicationView(props: ApplicationProps) {
  const { words, lang } = props;
  const { application, history } = props.loaded;
  const withdrawn = application.status === "withdrawn";
  return (
    <>
      {withdrawn ? <p class="notice">{words.withdrawn}</p> : null}
      <h2>{words.details}</h2>
      <dl>
        <dt>{words.job}</dt>
        <dd>
          <a href={jobPath(props.job.id)}>{props.job.title}</a> (<a href={`${jobPath(props.job.id)}/applications`}>{words.title}</a>)
        </dd>
        <dt>{words.received}</dt>
        <dd>
          <When lang={lang} iso={application.receivedAt} withTime />
        </dd>
        <dt>{words.email}</dt>
        <dd>
          {application.email === null ? words.erased : <a href={`mailto:${application.email}`}>{application.email}</a>}
        </dd>
        <dt>{words.phone}</dt>
        <dd>{application.phone ?? words.none}</dd>
        <dt>{words.status}</dt>
        <dd>{words.statuses[application.status]}</dd>
        {application.decisionDueAt ? (
          <>
            <dt>{words.decisionDue}</dt>
            <dd>
              <When lang={lang} iso={application.decisionDueAt} />
              <small>{words.decisionDueHint}</small>
            </dd>
          </>
        ) : null}
        <dt>{words.knockout}</dt>
        <dd>{application.screenedOut ? words.screenedOut : words.passed}</dd>
        <dt>{words.resume}</dt>
        <dd>
          {application.resume ? (
            <a href={`${applicationPath(application.id)}/resume`}>
              {words.download(application.resume.filename, words.bytes(application.resume.size))}
            </a>
          ) : withdrawn ? (
            words.resumeDeleted
          ) : (
            words.none
          )}
        </dd>
      </dl>
      <h2>{words.coverLetter}</h2>
      {application.coverLetter ? <Letter text={application.coverLetter} /> : <p>{words.none}</p>}
      <h2>{words.answers}</h2>
      <Answers {...props} answers={application.answers} screenedOut={application.screenedOut} />
      <h2>{words.history}</h2>
      <DataTable
        caption={words.historyCaption}
        empty={words.none}
        rows={history}
        columns={[
          { header: words.status, cell: (move) => words.statuses[move.status] },
          { header: words.at, cell: (move) => <When lang={lang} iso={move.at} withTime /> },
          { header: words.note, cell: (move) => move.note ?? "" },
        ]}
      />
      <h2>{words.move}</h2>
      {isFinal(application.status) && Object.keys(props.errors).length === 0 ? <p>{words.finalNow(words.statuses[application.status])}</p> : <MoveFormView {...props} />}
    </>
  );
}

/** The applicant's text as they wrote it: paragraphs at blank lines, line breaks kept. */
function Letter(props: { text: string }) {
  return (
    <>
      {props.text
        .split(/\r?\n\s*\r?\n/)
        .filter((paragraph) => paragraph.trim())
        .map((paragraph) => (
        <p>{paragraph.split(/\r?\n/).flatMap((line, i) => (i === 0 ? [line] : [<br />, line])) as Child[]}</p>
      ))}
    </>
  );
}

function Answers(props: ApplicationProps & { answers: Record<string, Answer>; screenedOut: boolean }) {
  const { words } = props;
  const byKey = new Map(props.job.questions.map((question) => [question.key, question]));
  // The job's questions in their order, then answers to questions the job no longer asks.
  const keys = [...props.job.questions.map((question) => question.key).filter((key) => key in props.answers), ...Object.keys(props.answers).filter((key) => !byKey.has(key))];
  const shown = (answer: Answer) => (typeof answer === "boolean" ? (answer ? words.yes : words.no) : Array.isArray(answer) ? answer.join(", ") : String(answer));
  const result = (question: Question | undefined, answer: Answer) =>
    question === undefined || question.knockout === null ? words.noKnockout : matchesKnockout(question, answer) ? <strong>{words.screensOut}</strong> : words.passes;
  if (keys.length === 0) return <p>{words.noAnswers}</p>;
  return (
    <>
      <p>{words.overall(props.screenedOut)}</p>
      <DataTable
        caption={words.answersCaption}
        empty={words.noAnswers}
        rows={keys}
        columns={[
          { header: words.question, cell: (key) => byKey.get(key)?.text ?? key },
          { header: words.answer, cell: (key) => shown(props.answers[key]) },
          { header: words.knockout, cell: (key) => result(byKey.get(key), props.answers[key]) },
        ]}
      />
    </>
  );
}

function MoveFormView(props: ApplicationProps) {
  const { words, form, errors } = props;
  const id = props.loaded.application.id;
  return (
    <form method="post" action={`${applicationPath(id)}/status`}>
      <Field id="status" label={words.newStatus} hint={words.newStatusHint} error={errors.status}>
        {(aria) => (
          <select id="status" name="status" {...aria}>
            {APPLICATION_STATUSES.map((status) => (
              <option value={status} selected={form.status === status}>
                {words.statuses[status]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="note" label={words.note} hint={words.noteHint} error={errors.note}>
        {(aria) => (
          <textarea id="note" name="note" rows={3} {...aria}>
            {form.note}
          </textarea>
        )}
      </Field>
      <p>
        <input
          type="checkbox"
          id="notifyApplicant"
          name="notifyApplicant"
          value="yes"
          checked={form.notifyApplicant}
          aria-invalid={errors.notifyApplicant ? "true" : undefined}
          aria-describedby={errors.notifyApplicant ? "notifyApplicant-hint notifyApplicant-error" : "notifyApplicant-hint"}
        />{" "}
        <label for="notifyApplicant" class="inline">
          {words.notify}
        </label>
        <small id="notifyApplicant-hint">{words.notifyHint}</small>
        <FieldError id="notifyApplicant" message={errors.notifyApplicant} />
      </p>
      <button type="submit">{words.moveButton}</button>
    </form>
  );
}
