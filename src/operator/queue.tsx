import { Hono } from "hono";
import { DataTable } from "../ui/table";
import { langOf, type OperatorEnv } from "./context";
import { reportQueue } from "./reads";
import { page } from "./render";
import { COMMON_WORDS, formatMoment } from "./words";

// DESIGN 26: the console's first page — the jobs with open reports, most reported first. Read
// only here; the moderation acts (remove, restore, dismiss) and the job's own page come next.

const WORDS = {
  en: {
    title: "Reported jobs",
    caption: "Jobs with open reports, most reported first",
    job: "Job",
    employer: "Employer",
    status: "Status",
    reports: "Reports",
    reasons: "Reasons",
    latest: "Latest report",
    empty: "No job has an open report.",
  },
  fr: {
    title: "Offres signalées",
    caption: "Offres ayant des signalements ouverts, les plus signalées d'abord",
    job: "Offre",
    employer: "Employeur",
    status: "Statut",
    reports: "Signalements",
    reasons: "Motifs",
    latest: "Dernier signalement",
    empty: "Aucune offre n'a de signalement ouvert.",
  },
} as const;

export const queuePages = new Hono<OperatorEnv>();

queuePages.get("/operator", async (c) => {
  const lang = langOf(c);
  const words = WORDS[lang];
  const common = COMMON_WORDS[lang];
  const rows = await reportQueue(c.env);
  return page(
    c,
    words.title,
    <DataTable
      caption={words.caption}
      empty={words.empty}
      rows={rows}
      columns={[
        { header: words.job, cell: (row) => `#${row.jobId} ${row.job ? (row.job.title ?? common.untitled) : common.gone}` },
        { header: words.employer, cell: (row) => (row.job ? <a href={`/operator/employers/${row.job.employerId}`}>{row.job.employerName}</a> : "") },
        { header: words.status, cell: (row) => (row.job ? common.statuses[row.job.status] : "") },
        { header: words.reports, cell: (row) => String(row.reports) },
        {
          header: words.reasons,
          cell: (row) =>
            Object.entries(row.reasons)
              .filter(([, count]) => count > 0)
              .map(([reason, count]) => `${common.reasons[reason as keyof typeof common.reasons]} ${count}`)
              .join(", "),
        },
        { header: words.latest, cell: (row) => formatMoment(lang, row.latestAt) },
      ]}
    />,
  );
});
