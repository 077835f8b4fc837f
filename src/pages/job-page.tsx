import { raw } from "hono/html";
import type { BoardJob } from "../board/pages";
import { toBoardJob } from "../board/representation";
import type { JobRow } from "../jobs/service";
import { ApplyForm, type ApplyState } from "./apply-form";
import { Layout } from "../ui/layout";
import { jobPath, REPORT } from "../ui/paths";
import { formatSalary } from "../ui/pay";
import { formatDate, type Lang } from "../ui/i18n";
import { categoryName, positionTypeName, WORDS } from "./i18n";

// DESIGN 18: a job's page — the whole board job, readable, with its JobPosting for search
// engines; the French page shows the job's French version when it has one.

/** The job's title and description in the page's language (the French version when there is one). */
export function contentOf(job: BoardJob, lang: Lang): { title: string; description: string | null } {
  const fr = lang === "fr" ? job.translations?.fr : undefined;
  return fr ? { title: fr.title, description: fr.description } : { title: job.title ?? "", description: job.description };
}

/** DESIGN 14's JobPosting, plus its identifier and url (18a). */
export function jobPostingOf(job: BoardJob, url: string, lang: Lang) {
  const { title, description } = contentOf(job, lang);
  return { ...job.jsonLd, title, description: description ?? "", identifier: { "@type": "PropertyValue", name: "id", value: job.id }, url };
}

export function JobPage(props: { job: BoardJob; lang: Lang; addresses: Record<Lang, string>; action: string; apply?: ApplyState; turnstileSiteKey?: string }) {
  const { job, lang, addresses } = props;
  const words = WORDS[lang];
  const { title } = contentOf(job, lang);
  const summary = `${title} — ${job.employer?.name ?? words.confidential} — ${job.locations.map((l) => l.description).join(", ")}`;
  return (
    <Layout lang={lang} title={title} description={summary.slice(0, 300)} addresses={addresses} jsonLd={jobPostingOf(job, addresses[lang], lang)}>
      <JobArticle job={job} lang={lang} action={props.action} apply={props.apply} turnstileSiteKey={props.turnstileSiteKey} />
    </Layout>
  );
}

/**
 * The job as its page shows it. In a preview (the employer console's) the title is a second-level
 * heading under the console's own, the apply form is shown but disabled, and there is no link to
 * report the job: it may not be on the board.
 */
function JobArticle(props: { job: BoardJob; lang: Lang; action: string; apply?: ApplyState; turnstileSiteKey?: string; preview?: boolean }) {
  const { job, lang, preview } = props;
  const words = WORDS[lang];
  const { title, description } = contentOf(job, lang);
  const applyForm = <ApplyForm job={job} lang={lang} action={props.action} state={props.apply} turnstileSiteKey={props.turnstileSiteKey} />;
  return (
    <article>
      {preview ? <h2>{title}</h2> : <h1>{title}</h1>}
      <p>{job.employer?.name ?? words.confidential}</p>
      <dl>
        <dt>{words.places}</dt>
        <dd>{job.locations.map((l) => l.description).join(" · ")}</dd>
        {job.salary ? (
          <>
            <dt>{words.salary}</dt>
            <dd>{formatSalary(lang, job.salary)}</dd>
          </>
        ) : null}
        {job.positionType ? (
          <>
            <dt>{words.positionType}</dt>
            <dd>{positionTypeName(lang, job.positionType)}</dd>
          </>
        ) : null}
        <dt>{words.categories}</dt>
        <dd>{job.categories.map((c) => categoryName(lang, c)).join(" · ")}</dd>
        <dt>{words.published}</dt>
        <dd>
          <time datetime={job.publishDate}>{formatDate(lang, job.publishDate)}</time>
        </dd>
        <dt>{words.closes}</dt>
        <dd>
          <time datetime={job.closeDate}>{formatDate(lang, job.closeDate)}</time>
        </dd>
      </dl>
      {job.existingVacancy !== null ? <p>{job.existingVacancy ? words.vacancy : words.noVacancy}</p> : null}
      {job.aiUsedInSelection !== null ? <p>{job.aiUsedInSelection ? words.aiUsed : words.aiNotUsed}</p> : null}
      {job.apply?.method === "url" ? (
        <a class="apply" href={job.apply.url} rel="nofollow noopener">
          {words.applyOnSite}
        </a>
      ) : null}
      {/* Already cleaned to the allow-list when written (DESIGN 6): inserted as is. */}
      {description ? (
        <section class="description" aria-label={words.aboutJob}>
          {raw(description)}
        </section>
      ) : null}
      {job.apply?.method === "email" ? preview ? <fieldset disabled>{applyForm}</fieldset> : applyForm : null}
      {preview ? null : (
        <p>
          <a href={`${props.action}${REPORT}`} rel="nofollow">
            {words.report}
          </a>
        </p>
      )}
    </article>
  );
}

/**
 * DESIGN 25, 16b: a job of any status (a draft too) as its board page shows it, for the employer
 * console's preview, which the composition root (src/app.ts) hands this to: the board's own
 * public job (never its referenceId, its application email or its rules' details), without the
 * page around it or its JobPosting (the console's pages are never indexed), its apply form
 * disabled.
 */
export function JobPagePreview(props: { job: JobRow; lang: Lang }) {
  const { job } = props;
  const boardJob = toBoardJob({ job: JSON.stringify(job), employerName: job.employerName, shard: 0, employerId: job.employerId });
  return <JobArticle job={boardJob} lang={props.lang} action={jobPath(props.lang, job.id, contentOf(boardJob, props.lang).title)} preview />;
}

/** 410 for a job that left the board, 404 for an address that names none: no JobPosting. */
export function MissingJobPage(props: { lang: Lang; gone: boolean; addresses: Record<Lang, string> }) {
  const words = WORDS[props.lang];
  const title = props.gone ? words.goneTitle : words.notFoundTitle;
  return (
    <Layout lang={props.lang} title={title} description={title} addresses={props.addresses}>
      <h1>{title}</h1>
      <p>{props.gone ? words.gone : words.notFound}</p>
    </Layout>
  );
}

/** After an application: said once, never cached (the POST answered 303 here). */
export function SentPage(props: { lang: Lang; addresses: Record<Lang, string>; jobAddress: string }) {
  const words = WORDS[props.lang];
  return (
    <Layout lang={props.lang} title={words.sentTitle} description={words.sentTitle} addresses={props.addresses}>
      <h1>{words.sentTitle}</h1>
      <p>{words.sent}</p>
      <p>
        <a href={props.jobAddress}>{words.back}</a>
      </p>
    </Layout>
  );
}
