import { Hono } from "hono";
import { raw } from "hono/html";
import { removeJobByOperator, restoreJobByOperator } from "../jobs/moderation";
import { NotFoundError } from "../http/problem";
import { dismissReports } from "../reports/moderation";
import { formatDateTime, type Lang } from "../ui/i18n";
import { DataTable } from "../ui/table";
import type { OperatorReason } from "../events/types";
import { ACT_WORDS, ActFormView, actFormOf, parseAct, type ActErrors, type ActForm } from "./acts";
import { audited } from "./audit";
import { idParam, langOf, type OperatorContext, type OperatorEnv } from "./context";
import { jobCase } from "./reads";
import { page } from "./render";
import { COMMON_WORDS, formatMoment } from "./words";

// DESIGN 26, 26a: one reported job as the operator judges it — its reports (the reporter's email
// shown here only), the job as the board shows it, its employer's earlier removals — and the
// acts: remove, restore, dismiss the reports; each with a reason and a note, each recorded
// (./audit.ts), each answered 303 back to this page.

const WORDS = {
  en: {
    title: (id: number) => `Job #${id}`,
    notice: { remove: "The job was removed from the board.", restore: "The job was restored: its employer may publish it again.", dismiss: "The reports were dismissed." },
    job: "The job as the board shows it",
    gone: "The job no longer exists (deleted by its employer); its reports remain.",
    jobTitle: "Title",
    employer: "Employer",
    status: "Status",
    places: "Places",
    moderation: "Moderation",
    removedBecause: (reason: string, at: string) => `removed (${reason}) on ${at}`,
    description: "Description",
    reports: "Reports, newest first",
    noReports: "No reports.",
    reason: "Reason",
    details: "Details",
    reporter: "Reporter's email",
    when: "When",
    state: "State",
    states: { open: "open", removed: "job removed", dismissed: "dismissed" },
    removals: "The employer's earlier removals",
    noRemovals: "No job of this employer was removed after reports.",
    removedJob: "Job",
    removedAt: "Removed",
    acts: "Acts",
    remove: "Remove from the board",
    removeHint: "The job leaves the board at once, its pages answer 410, its employer's admins are emailed why, and its open reports are resolved.",
    restore: "Restore",
    restoreHint: "Its employer may publish the job again (it stays archived until then).",
    dismiss: "Dismiss the reports",
    dismissHint: "The open reports are closed; the job stays as it is.",
  },
  fr: {
    title: (id: number) => `Offre nº ${id}`,
    notice: { remove: "L'offre a été retirée du site.", restore: "L'offre a été rétablie : son employeur peut la publier de nouveau.", dismiss: "Les signalements ont été écartés." },
    job: "L'offre telle que le site la montre",
    gone: "L'offre n'existe plus (supprimée par son employeur); ses signalements restent.",
    jobTitle: "Titre",
    employer: "Employeur",
    status: "Statut",
    places: "Lieux",
    moderation: "Modération",
    removedBecause: (reason: string, at: string) => `retirée (${reason}) le ${at}`,
    description: "Description",
    reports: "Signalements, les plus récents d'abord",
    noReports: "Aucun signalement.",
    reason: "Motif",
    details: "Détails",
    reporter: "Courriel de la personne",
    when: "Quand",
    state: "État",
    states: { open: "ouvert", removed: "offre retirée", dismissed: "écarté" },
    removals: "Retraits antérieurs chez cet employeur",
    noRemovals: "Aucune offre de cet employeur n'a été retirée après des signalements.",
    removedJob: "Offre",
    removedAt: "Retirée",
    acts: "Actes",
    remove: "Retirer du site",
    removeHint: "L'offre quitte le site aussitôt, ses pages répondent 410, les administrateurs de l'employeur reçoivent le motif par courriel et ses signalements ouverts sont résolus.",
    restore: "Rétablir",
    restoreHint: "Son employeur peut publier l'offre de nouveau (elle reste archivée d'ici là).",
    dismiss: "Écarter les signalements",
    dismissHint: "Les signalements ouverts sont fermés; l'offre reste telle quelle.",
  },
} as const;

const ACTS = ["remove", "restore", "dismiss"] as const;
type JobAct = (typeof ACTS)[number];

/** The act the operator tried and why it was refused, shown again with its form. */
interface Refused {
  act: JobAct;
  form: ActForm;
  errors: ActErrors;
}

function ActSection(props: { lang: Lang; jobId: number; act: JobAct; hint: string; refused?: Refused }) {
  const words = WORDS[props.lang];
  const mine = props.refused?.act === props.act ? props.refused : undefined;
  return (
    <section aria-labelledby={`${props.act}-title`}>
      <h3 id={`${props.act}-title`}>{words[props.act]}</h3>
      <p>{props.hint}</p>
      <ActFormView
        lang={props.lang}
        action={`/operator/jobs/${props.jobId}/${props.act}`}
        prefix={props.act}
        button={words[props.act]}
        danger={props.act === "remove"}
        form={mine?.form}
        errors={mine?.errors}
      />
    </section>
  );
}

async function jobPage(c: OperatorContext, jobId: number, refused?: Refused) {
  const lang = langOf(c);
  const words = WORDS[lang];
  const common = COMMON_WORDS[lang];
  const { reports, job, removals } = await jobCase(c.env, jobId);
  if (!job && reports.length === 0) throw new NotFoundError();
  const done = c.req.query("done");
  const notice = !refused && ACTS.includes(done as JobAct) ? words.notice[done as JobAct] : undefined;
  const open = reports.some((report) => report.resolvedAt === null);
  const removed = job?.moderation?.status === "removed";
  return page(
    c,
    words.title(jobId),
    <>
      {notice ? (
        <p role="status" class="notice">
          {notice}
        </p>
      ) : null}
      <section aria-labelledby="job-title">
        <h2 id="job-title">{words.job}</h2>
        {job ? (
          <>
            <dl>
              <dt>{words.jobTitle}</dt>
              <dd>{job.title ?? common.untitled}</dd>
              <dt>{words.employer}</dt>
              <dd>
                <a href={`/operator/employers/${job.employer.id}`}>{job.employer.name}</a>
              </dd>
              <dt>{words.status}</dt>
              <dd>{common.statuses[job.status]}</dd>
              <dt>{words.places}</dt>
              <dd>{job.locations.map((place) => place.description).join(" · ")}</dd>
              {job.moderation ? (
                <>
                  <dt>{words.moderation}</dt>
                  <dd>{words.removedBecause(ACT_WORDS[lang].reasons[job.moderation.reason], formatDateTime(lang, job.moderation.at))}</dd>
                </>
              ) : null}
            </dl>
            {/* Cleaned to the allow-list when saved (DESIGN 6), as the board's page inserts it. */}
            {job.description ? (
              <section class="description" aria-label={words.description}>
                {raw(job.description)}
              </section>
            ) : null}
          </>
        ) : (
          <p>{words.gone}</p>
        )}
      </section>
      <section aria-labelledby="reports-title">
        <h2 id="reports-title">{words.reports}</h2>
        <DataTable
          caption={words.reports}
          empty={words.noReports}
          rows={reports}
          columns={[
            { header: words.reason, cell: (row) => common.reasons[row.reason] },
            { header: words.details, cell: (row) => row.details ?? "" },
            { header: words.reporter, cell: (row) => row.email ?? "" },
            { header: words.when, cell: (row) => formatMoment(lang, row.createdAt) },
            { header: words.state, cell: (row) => words.states[row.resolution ?? "open"] },
          ]}
        />
      </section>
      {job ? (
        <section aria-labelledby="removals-title">
          <h2 id="removals-title">{words.removals}</h2>
          <DataTable
            caption={words.removals}
            empty={words.noRemovals}
            rows={removals}
            columns={[
              { header: words.removedJob, cell: (row) => <a href={`/operator/jobs/${row.jobId}`}>{`#${row.jobId} ${row.title ?? common.untitled}`}</a> },
              { header: words.removedAt, cell: (row) => formatMoment(lang, row.removedAt) },
            ]}
          />
        </section>
      ) : null}
      <section aria-labelledby="acts-title">
        <h2 id="acts-title">{words.acts}</h2>
        {job && !removed ? <ActSection lang={lang} jobId={jobId} act="remove" hint={words.removeHint} refused={refused} /> : null}
        {removed ? <ActSection lang={lang} jobId={jobId} act="restore" hint={words.restoreHint} refused={refused} /> : null}
        {open ? <ActSection lang={lang} jobId={jobId} act="dismiss" hint={words.dismissHint} refused={refused} /> : null}
      </section>
    </>,
    refused ? 422 : 200,
  );
}

export const moderationPages = new Hono<OperatorEnv>();

moderationPages.get("/operator/jobs/:id", (c) => jobPage(c, idParam(c)));

/** An act's outcome, or a 404 when its job no longer exists (audited() records it as failed). */
function found<T>(outcome: T | undefined): T {
  if (outcome === undefined) throw new NotFoundError();
  return outcome;
}

/** What each act does once its form is valid. */
const perform: Record<JobAct, (c: OperatorContext, jobId: number, reason: OperatorReason) => Promise<unknown>> = {
  remove: async (c, jobId, reason) => found(await removeJobByOperator(c.env, { jobId, reason })),
  restore: async (c, jobId) => found(await restoreJobByOperator(c.env, { jobId })),
  dismiss: (c, jobId) => dismissReports(c.env, { jobId }),
};

for (const act of ACTS) {
  moderationPages.post(`/operator/jobs/:id/${act}`, async (c) => {
    const jobId = idParam(c);
    const form = actFormOf(await c.req.parseBody());
    const asked = parseAct(form, langOf(c));
    if ("errors" in asked) return jobPage(c, jobId, { act, form, errors: asked.errors });
    await audited(c, { action: `job.${act}`, target: `job:${jobId}`, ...asked }, () => perform[act](c, jobId, asked.reason));
    return c.redirect(`/operator/jobs/${jobId}?done=${act}`, 303);
  });
}
