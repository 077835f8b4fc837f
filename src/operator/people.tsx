import { Hono } from "hono";
import { eraseJobSeeker, exportJobSeeker, type JobSeekerExport } from "../applications/job-seekers";
import { Field, FieldError, tieToError } from "../ui/fields";
import type { Lang } from "../ui/i18n";
import { DataTable } from "../ui/table";
import { NoteField, noteError, noteOf } from "./acts";
import { audited } from "./audit";
import { isEmailAddress, langOf, type OperatorContext, type OperatorEnv } from "./context";
import { page } from "./render";

// DESIGN 26, 26a: a job seeker's requests, by email address — what the board holds of it (its
// alerts' consent records and its applications in every shard), the export (one JSON file, an
// attachment) and the erasure (confirmed by a checkbox). Looking is not an act; exporting and
// erasing are, each recorded (./audit.ts).

const WORDS = {
  en: {
    title: "Job seekers' requests",
    find: "Find an address",
    email: "Email address",
    emailHint: "The address the job seeker applied or subscribed with, as they wrote it to the board.",
    show: "Show what the board holds",
    emailInvalid: "Enter a valid email address.",
    alerts: "Alert consent records, oldest first",
    noAlerts: "No alert of this address.",
    alert: "Alert",
    status: "Status",
    language: "Language",
    source: "Source",
    created: "Subscribed",
    confirmed: "Confirmed",
    consentText: "Consent text",
    applications: "Applications, oldest first",
    noApplications: "No application from this address.",
    application: "Application",
    job: "Job",
    employer: "Employer",
    name: "Name",
    received: "Received",
    resume: "Résumé",
    export: "Export",
    exportHint: "One JSON file with every application and consent record of the address, for an access request; the export is recorded.",
    exportButton: "Download the export (JSON)",
    erase: "Erase",
    eraseHint:
      "The applications keep their job, status and dates for the employers' counts, but their name, email, phone, cover letter and résumé are erased; the address's alerts end. Consent records are kept as the law allows. This cannot be undone.",
    confirm: "I confirm the job seeker asked for the erasure, and that it cannot be undone.",
    confirmMissing: "Tick the box to confirm the erasure.",
    eraseButton: "Erase",
    erased: (applications: number, alerts: number) => `Done. Applications erased: ${applications}. Alerts ended: ${alerts}.`,
    remaining: (count: number) => `Applications not erased because their employer was being moved between shards: ${count}. Erase again in a minute.`,
  },
  fr: {
    title: "Demandes des chercheurs d'emploi",
    find: "Trouver une adresse",
    email: "Adresse courriel",
    emailHint: "L'adresse avec laquelle la personne a postulé ou s'est abonnée, telle qu'elle l'a écrite.",
    show: "Voir ce que le site conserve",
    emailInvalid: "Entrez une adresse courriel valide.",
    alerts: "Consentements aux alertes, les plus anciens d'abord",
    noAlerts: "Aucune alerte pour cette adresse.",
    alert: "Alerte",
    status: "Statut",
    language: "Langue",
    source: "Source",
    created: "Abonnement",
    confirmed: "Confirmation",
    consentText: "Texte de consentement",
    applications: "Candidatures, les plus anciennes d'abord",
    noApplications: "Aucune candidature de cette adresse.",
    application: "Candidature",
    job: "Offre",
    employer: "Employeur",
    name: "Nom",
    received: "Reçue",
    resume: "CV",
    export: "Exporter",
    exportHint: "Un fichier JSON avec chaque candidature et chaque consentement de l'adresse, pour une demande d'accès; l'exportation est consignée.",
    exportButton: "Télécharger l'exportation (JSON)",
    erase: "Effacer",
    eraseHint:
      "Les candidatures gardent leur offre, leur statut et leurs dates pour les comptes des employeurs, mais leurs nom, courriel, téléphone, lettre et CV sont effacés; les alertes de l'adresse prennent fin. Les consentements sont conservés comme la loi le permet. C'est irréversible.",
    confirm: "Je confirme que la personne a demandé l'effacement et qu'il est irréversible.",
    confirmMissing: "Cochez la case pour confirmer l'effacement.",
    eraseButton: "Effacer",
    erased: (applications: number, alerts: number) => `C'est fait. Candidatures effacées : ${applications}. Alertes terminées : ${alerts}.`,
    remaining: (count: number) => `Candidatures non effacées parce que leur employeur changeait de fragment : ${count}. Effacez de nouveau dans une minute.`,
  },
} as const;

/** What a refused form (422) shows again: the typed note and the messages beside their fields. */
interface Refused {
  form: "find" | "export" | "erase";
  note?: string;
  errors: { email?: string; note?: string; confirm?: string };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

function Holdings(props: { lang: Lang; held: JobSeekerExport }) {
  const words = WORDS[props.lang];
  return (
    <>
      <DataTable
        caption={words.applications}
        empty={words.noApplications}
        rows={props.held.applications}
        columns={[
          { header: words.application, cell: (row) => String(row.id) },
          { header: words.job, cell: (row) => `#${row.jobId} ${row.jobTitle ?? ""}` },
          { header: words.employer, cell: (row) => row.employer },
          { header: words.name, cell: (row) => row.name ?? "" },
          { header: words.received, cell: (row) => row.receivedAt },
          { header: words.status, cell: (row) => row.status },
          { header: words.resume, cell: (row) => row.resume?.filename ?? "" },
        ]}
      />
      <DataTable
        caption={words.alerts}
        empty={words.noAlerts}
        rows={props.held.alerts}
        columns={[
          { header: words.alert, cell: (row) => String(row.alertId) },
          { header: words.status, cell: (row) => row.status },
          { header: words.language, cell: (row) => row.language },
          { header: words.source, cell: (row) => row.source },
          { header: words.created, cell: (row) => row.createdAt },
          { header: words.confirmed, cell: (row) => row.confirmedAt ?? "" },
          { header: words.consentText, cell: (row) => row.consentTextVersion },
        ]}
      />
    </>
  );
}

async function peoplePage(c: OperatorContext, email: string, refused?: Refused) {
  const lang = langOf(c);
  const words = WORDS[lang];
  const address = email.trim();
  const invalid = address !== "" && !isEmailAddress(address);
  const emailError = refused?.errors.email ?? (invalid ? words.emailInvalid : undefined);
  const held = address && !emailError ? await exportJobSeeker(c.env, address) : undefined;
  const erased = c.req.query("erased");
  const notices =
    !refused && erased !== undefined
      ? [words.erased(Number(erased) || 0, Number(c.req.query("alerts")) || 0), ...(Number(c.req.query("remaining")) > 0 ? [words.remaining(Number(c.req.query("remaining")))] : [])]
      : [];
  const noteOfForm = (form: Refused["form"]) => (refused?.form === form ? (refused.note ?? "") : "");
  const noteErrorOf = (form: Refused["form"]) => (refused?.form === form ? refused.errors.note : undefined);
  return page(
    c,
    words.title,
    <>
      {notices.map((notice) => (
        <p role="status" class="notice">
          {notice}
        </p>
      ))}
      <section aria-labelledby="find-title">
        <h2 id="find-title">{words.find}</h2>
        <form method="get" action="/operator/people">
          <Field id="email" label={words.email} hint={words.emailHint} error={emailError}>
            {(aria) => <input id="email" name="email" type="email" value={email} required maxlength={254} autocomplete="off" {...aria} />}
          </Field>
          <p>
            <button type="submit">{words.show}</button>
          </p>
        </form>
      </section>
      {held ? (
        <>
          <Holdings lang={lang} held={held} />
          <section aria-labelledby="export-title">
            <h2 id="export-title">{words.export}</h2>
            <p>{words.exportHint}</p>
            <form method="post" action="/operator/people/export">
              <input type="hidden" name="email" value={address} />
              <NoteField lang={lang} prefix="export" value={noteOfForm("export")} error={noteErrorOf("export")} />
              <p>
                <button type="submit">{words.exportButton}</button>
              </p>
            </form>
          </section>
          <section aria-labelledby="erase-title">
            <h2 id="erase-title">{words.erase}</h2>
            <p>{words.eraseHint}</p>
            <form method="post" action="/operator/people/erase">
              <input type="hidden" name="email" value={address} />
              <NoteField lang={lang} prefix="erase" value={noteOfForm("erase")} error={noteErrorOf("erase")} />
              <p>
                <input id="erase-confirm" name="confirm" type="checkbox" value="yes" required {...tieToError("erase-confirm", refused?.errors.confirm)} />{" "}
                <label for="erase-confirm">{words.confirm}</label> <FieldError id="erase-confirm" message={refused?.errors.confirm} />
              </p>
              <p>
                <button type="submit" class="danger">
                  {words.eraseButton}
                </button>
              </p>
            </form>
          </section>
        </>
      ) : null}
    </>,
    refused || invalid ? 422 : 200,
  );
}

/** The posted address and note, or the page again (422) with the messages beside their fields. */
async function readRequest(c: OperatorContext, form: "export" | "erase") {
  const body = await c.req.parseBody();
  const email = text(body.email).trim();
  const note = text(body.note);
  const lang = langOf(c);
  const errors: Refused["errors"] = {};
  if (!isEmailAddress(email)) errors.email = WORDS[lang].emailInvalid;
  const tooLong = noteError(note, lang);
  if (tooLong) errors.note = tooLong;
  if (form === "erase" && body.confirm !== "yes") errors.confirm = WORDS[lang].confirmMissing;
  return { email, note: noteOf({ note }), refused: Object.keys(errors).length > 0 ? { form, note, errors } : undefined };
}

export const peoplePages = new Hono<OperatorEnv>();

peoplePages.get("/operator/people", (c) => peoplePage(c, (c.req.query("email") ?? "").slice(0, 254)));

peoplePages.post("/operator/people/export", async (c) => {
  const { email, note, refused } = await readRequest(c, "export");
  if (refused) return peoplePage(c, email, refused);
  const held = await audited(c, { action: "job-seeker.export", target: `email:${email}`, note }, () => exportJobSeeker(c.env, email));
  return c.body(JSON.stringify(held, null, 2), 200, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Disposition": `attachment; filename="job-seeker-${held.exportedAt.slice(0, 10)}.json"`,
  });
});

peoplePages.post("/operator/people/erase", async (c) => {
  const { email, note, refused } = await readRequest(c, "erase");
  if (refused) return peoplePage(c, email, refused);
  const done = await audited(c, { action: "job-seeker.erase", target: `email:${email}`, note }, () => eraseJobSeeker(c.env, email));
  const query = new URLSearchParams({ email, erased: String(done.applications), alerts: String(done.alerts), remaining: String(done.remaining) });
  return c.redirect(`/operator/people?${query}`, 303);
});
