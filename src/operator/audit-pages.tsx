import { Hono } from "hono";
import { listActs } from "../accounts/audit";
import { NextPageLink } from "../ui/pagination";
import { DataTable } from "../ui/table";
import { langOf, type OperatorEnv } from "./context";
import { page } from "./render";
import { formatMoment } from "./words";

// DESIGN 26: every act of the console, newest first, a page at a time (`before` an act's number).

const WORDS = {
  en: {
    title: "Audit",
    caption: "Acts of the operator's console, newest first",
    empty: "No act yet.",
    at: "When",
    operator: "Operator",
    action: "Action",
    target: "Target",
    reason: "Reason",
    note: "Note",
    outcome: "Outcome",
    outcomes: { done: "done", failed: "failed, nothing changed", pending: "unknown: may have been done" },
    older: "Older acts",
  },
  fr: {
    title: "Journal",
    caption: "Actes de la console de l'exploitant, les plus récents d'abord",
    empty: "Aucun acte pour l'instant.",
    at: "Quand",
    operator: "Exploitant",
    action: "Action",
    target: "Cible",
    reason: "Motif",
    note: "Note",
    outcome: "Résultat",
    outcomes: { done: "fait", failed: "échoué, rien n'a changé", pending: "inconnu : peut avoir été fait" },
    older: "Actes plus anciens",
  },
} as const;

const PAGE_SIZE = 50;

export const auditPages = new Hono<OperatorEnv>();

auditPages.get("/operator/audit", async (c) => {
  const lang = langOf(c);
  const words = WORDS[lang];
  const before = /^[1-9][0-9]{0,15}$/.test(c.req.query("before") ?? "") ? Number(c.req.query("before")) : undefined;
  const acts = await listActs(c.env, { before, limit: PAGE_SIZE });
  const next = acts.length === PAGE_SIZE ? `/operator/audit?before=${acts.at(-1)!.id}` : null;
  return page(
    c,
    words.title,
    <>
      <DataTable
        caption={words.caption}
        empty={words.empty}
        rows={acts}
        columns={[
          { header: words.at, cell: (act) => formatMoment(lang, act.at) },
          { header: words.operator, cell: (act) => act.operator },
          { header: words.action, cell: (act) => act.action },
          { header: words.target, cell: (act) => act.target },
          { header: words.reason, cell: (act) => act.reason ?? "" },
          { header: words.note, cell: (act) => act.note ?? "" },
          { header: words.outcome, cell: (act) => words.outcomes[act.outcome] },
        ]}
      />
      <NextPageLink href={next} label={words.older} />
    </>,
  );
});
