import { Hono } from "hono";
import { moderationQueue } from "../jobs/moderation";
import { DataTable } from "../ui/table";
import { langOf, type OperatorEnv } from "./context";
import { page } from "./render";
import { COMMON_WORDS, formatMoment } from "./words";

// DESIGN 26: the console's first page — the moderation queue: jobs with open reports, most
// reported first, each leading to its own page (./moderation.tsx), where the operator acts.

const WORDS = {
  en: {
    title: "Reported jobs",
    caption: "Jobs with open reports, most reported first",
    job: "Job",
    employer: "Employer",
    status: "Status",
    removed: "removed",
    reports: "Open reports",
    latest: "Latest report",
    empty: "No job has an open report.",
  },
  fr: {
    title: "Offres signalées",
    caption: "Offres ayant des signalements ouverts, les plus signalées d'abord",
    job: "Offre",
    employer: "Employeur",
    status: "Statut",
    removed: "retirée",
    reports: "Signalements ouverts",
    latest: "Dernier signalement",
    empty: "Aucune offre n'a de signalement ouvert.",
  },
} as const;

/** Jobs shown in the queue, at most. */
const QUEUE_SIZE = 50;

export const queuePages = new Hono<OperatorEnv>();

queuePages.get("/operator", async (c) => {
  const lang = langOf(c);
  const words = WORDS[lang];
  const common = COMMON_WORDS[lang];
  const rows = await moderationQueue(c.env, QUEUE_SIZE);
  return page(
    c,
    words.title,
    <DataTable
      caption={words.caption}
      empty={words.empty}
      rows={rows}
      columns={[
        { header: words.job, cell: (row) => <a href={`/operator/jobs/${row.jobId}`}>{`#${row.jobId} ${row.job ? (row.job.title ?? common.untitled) : common.gone}`}</a> },
        { header: words.employer, cell: (row) => (row.job ? <a href={`/operator/employers/${row.job.employerId}`}>{row.job.employerName}</a> : "") },
        { header: words.status, cell: (row) => (row.job ? (row.job.moderationStatus === "removed" ? words.removed : common.statuses[row.job.status]) : "") },
        { header: words.reports, cell: (row) => String(row.openReports) },
        { header: words.latest, cell: (row) => formatMoment(lang, row.latestReportAt) },
      ]}
    />,
  );
});
