import { Hono } from "hono";
import type { Child } from "hono/jsx";
import { inviteAdminByOperator } from "../accounts/invitations";
import { changePlan, createEmployer, EMPLOYER_NAME_MAX, findLiveEmployer, PLANS, searchEmployers, type LiveEmployer, type Plan } from "../employers/directory";
import { reinstateEmployer, suspendEmployer } from "../employers/suspension";
import { NotFoundError } from "../http/problem";
import { Field } from "../ui/fields";
import type { Lang } from "../ui/i18n";
import { DataTable } from "../ui/table";
import { ActFormView, actFormOf, parseAct, type ActErrors, type ActForm } from "./acts";
import { audited } from "./audit";
import { EmployerMoveSection } from "./moves";
import { idParam, isEmailAddress, langOf, publicOrigin, type OperatorContext, type OperatorEnv } from "./context";
import { employerOverview, SUSPENSION_ACTIONS } from "./reads";
import { page } from "./render";
import { COMMON_WORDS, formatMoment } from "./words";

// DESIGN 26, 26a: employers — found by name or id in every shard, one employer's page (plan,
// shard, jobs, people, reports), a new employer with its first admin's invitation, a new plan.
// Each write is an act with its record (./audit.ts; the invitation's record is in its own batch).

const WORDS = {
  en: {
    title: "Employers",
    search: "Find an employer",
    q: "Name or id",
    qHint: "The start of the employer's name (any case), or its id.",
    find: "Search",
    results: (q: string) => `Employers matching “${q}”`,
    none: "No employer matches.",
    id: "Id",
    name: "Name",
    plan: "Plan",
    shard: "Shard",
    created: "Created",
    jobs: "Jobs",
    jobCounts: (counts: { active: number; draft: number; archived: number }) => `${counts.active} active, ${counts.draft} drafts, ${counts.archived} archived`,
    create: "Create an employer",
    createHint: "Its first administrator is invited by email: the invitation works once, within 7 days.",
    adminEmail: "First administrator's email",
    language: "Language of the invitation",
    languages: { en: "English", fr: "French" } as Record<Lang, string>,
    createButton: "Create and invite",
    createdNotice: (id: string) => `Employer ${id} created; its first administrator's invitation was emailed.`,
    unsentNotice: (id: string) => `Employer ${id} created, but the invitation email could not be sent: invite again with npm run people -- invite --employer ${id} --email …`,
    nameInvalid: `Enter a name of 1 to ${EMPLOYER_NAME_MAX} characters.`,
    planInvalid: "Choose a plan.",
    emailInvalid: "Enter a valid email address.",
    languageInvalid: "Choose English or French.",
    changePlan: "Change the plan",
    newPlan: "New plan",
    saved: "Saved.",
    people: "People and invitations",
    noPeople: "No one yet.",
    keys: "API keys (prefixes only)",
    noKeys: "No API key.",
    prefix: "Prefix",
    keyKind: "Kind",
    keyKinds: { live: "live", test: "test" },
    noPrefix: "made before prefixes were kept",
    lastUsed: "Last used",
    never: "not recorded",
    email: "Email",
    role: "Role",
    roles: { admin: "administrator", recruiter: "recruiter" },
    state: "State",
    states: { person: "member", open: "invited", accepted: "invitation accepted", expired: "invitation expired" },
    since: "Date",
    reports: "Reports of its jobs, newest first",
    noReports: "No reports of its jobs.",
    job: "Job",
    reason: "Reason",
    details: "Details",
    reporter: "Reporter's email",
    when: "When",
    standing: "Standing",
    suspendedState: "Suspended: its jobs are off the board and its writes are refused.",
    activeState: "In good standing.",
    suspend: "Suspend",
    suspendHint: "Every job of the employer leaves the board at once; its API and console writes answer 403, its reads still answer.",
    reinstate: "Reinstate",
    reinstateHint: "Its active jobs come back on the board (removed ones stay off); its writes are accepted again.",
    suspendedNotice: "The employer was suspended.",
    reinstatedNotice: "The employer was reinstated.",
  },
  fr: {
    title: "Employeurs",
    search: "Trouver un employeur",
    q: "Nom ou numéro",
    qHint: "Le début du nom de l'employeur (majuscules ou minuscules), ou son numéro.",
    find: "Chercher",
    results: (q: string) => `Employeurs correspondant à « ${q} »`,
    none: "Aucun employeur ne correspond.",
    id: "Numéro",
    name: "Nom",
    plan: "Forfait",
    shard: "Fragment",
    created: "Créé",
    jobs: "Offres",
    jobCounts: (counts: { active: number; draft: number; archived: number }) => `${counts.active} actives, ${counts.draft} brouillons, ${counts.archived} archivées`,
    create: "Créer un employeur",
    createHint: "Son premier administrateur est invité par courriel : l'invitation fonctionne une fois, dans les 7 jours.",
    adminEmail: "Courriel du premier administrateur",
    language: "Langue de l'invitation",
    languages: { en: "anglais", fr: "français" } as Record<Lang, string>,
    createButton: "Créer et inviter",
    createdNotice: (id: string) => `Employeur ${id} créé; l'invitation de son premier administrateur a été envoyée.`,
    unsentNotice: (id: string) => `Employeur ${id} créé, mais le courriel d'invitation n'a pas pu être envoyé : invitez de nouveau avec npm run people -- invite --employer ${id} --email …`,
    nameInvalid: `Entrez un nom de 1 à ${EMPLOYER_NAME_MAX} caractères.`,
    planInvalid: "Choisissez un forfait.",
    emailInvalid: "Entrez une adresse courriel valide.",
    languageInvalid: "Choisissez l'anglais ou le français.",
    changePlan: "Changer le forfait",
    newPlan: "Nouveau forfait",
    saved: "Enregistré.",
    people: "Personnes et invitations",
    keys: "Clés d'API (préfixes seulement)",
    noKeys: "Aucune clé d'API.",
    prefix: "Préfixe",
    keyKind: "Type",
    keyKinds: { live: "production", test: "test" },
    noPrefix: "créée avant que les préfixes soient gardés",
    lastUsed: "Dernière utilisation",
    never: "non enregistrée",
    noPeople: "Personne pour l'instant.",
    email: "Courriel",
    role: "Rôle",
    roles: { admin: "administrateur", recruiter: "recruteur" },
    state: "État",
    states: { person: "membre", open: "invitée", accepted: "invitation acceptée", expired: "invitation expirée" },
    since: "Date",
    reports: "Signalements de ses offres, les plus récents d'abord",
    noReports: "Aucun signalement de ses offres.",
    job: "Offre",
    reason: "Motif",
    details: "Détails",
    reporter: "Courriel de la personne",
    when: "Quand",
    standing: "Situation",
    suspendedState: "Suspendu : ses offres ne sont plus sur le site et ses écritures sont refusées.",
    activeState: "En règle.",
    suspend: "Suspendre",
    suspendHint: "Toutes les offres de l'employeur quittent le site aussitôt; ses écritures par l'API et la console répondent 403, ses lectures répondent toujours.",
    reinstate: "Rétablir",
    reinstateHint: "Ses offres actives reviennent sur le site (les offres retirées restent retirées); ses écritures sont de nouveau acceptées.",
    suspendedNotice: "L'employeur a été suspendu.",
    reinstatedNotice: "L'employeur a été rétabli.",
  },
} as const;

/** Results of a search, at most. */
const RESULTS = 50;
const ID = /^[1-9][0-9]{0,9}$/;

interface CreateForm {
  name: string;
  plan: string;
  adminEmail: string;
  language: string;
}
type CreateErrors = Partial<Record<keyof CreateForm, string>>;

const text = (value: unknown) => (typeof value === "string" ? value : "");
const isPlan = (value: string): value is Plan => (PLANS as readonly string[]).includes(value);

function PlanSelect(props: { id: string; lang: Lang; value: string; aria: object }) {
  const plans = COMMON_WORDS[props.lang].plans;
  return (
    <select id={props.id} name="plan" {...props.aria}>
      {PLANS.map((plan) => (
        <option value={plan} selected={plan === props.value}>
          {plans[plan]}
        </option>
      ))}
    </select>
  );
}

function EmployersBody(props: { lang: Lang; q: string; results?: LiveEmployer[]; notice?: string; form: CreateForm; errors?: CreateErrors }) {
  const words = WORDS[props.lang];
  const { form, errors = {} } = props;
  return (
    <>
      {props.notice ? (
        <p role="status" class="notice">
          {props.notice}
        </p>
      ) : null}
      <section aria-labelledby="find">
        <h2 id="find">{words.search}</h2>
        <form method="get" action="/operator/employers">
          <Field id="q" label={words.q} hint={words.qHint}>
            {(aria) => <input id="q" name="q" type="search" value={props.q} maxlength={EMPLOYER_NAME_MAX} {...aria} />}
          </Field>
          <p>
            <button type="submit">{words.find}</button>
          </p>
        </form>
        {props.results ? (
          <DataTable
            caption={words.results(props.q)}
            empty={words.none}
            rows={props.results}
            columns={[
              { header: words.id, cell: (row) => String(row.id) },
              { header: words.name, cell: (row) => <a href={`/operator/employers/${row.id}`}>{row.name}</a> },
              { header: words.plan, cell: (row) => COMMON_WORDS[props.lang].plans[row.plan] },
              { header: words.shard, cell: (row) => String(row.shard) },
            ]}
          />
        ) : null}
      </section>
      <section aria-labelledby="create">
        <h2 id="create">{words.create}</h2>
        <p>{words.createHint}</p>
        <form method="post" action="/operator/employers">
          <Field id="name" label={words.name} error={errors.name}>
            {(aria) => <input id="name" name="name" value={form.name} required maxlength={EMPLOYER_NAME_MAX} {...aria} />}
          </Field>
          <Field id="plan" label={words.plan} error={errors.plan}>
            {(aria) => <PlanSelect id="plan" lang={props.lang} value={form.plan} aria={aria} />}
          </Field>
          <Field id="adminEmail" label={words.adminEmail} error={errors.adminEmail}>
            {(aria) => <input id="adminEmail" name="adminEmail" type="email" value={form.adminEmail} required maxlength={254} autocomplete="off" {...aria} />}
          </Field>
          <Field id="language" label={words.language} error={errors.language}>
            {(aria) => (
              <select id="language" name="language" {...aria}>
                {(["en", "fr"] as const).map((language) => (
                  <option value={language} selected={language === form.language}>
                    {words.languages[language]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <p>
            <button type="submit">{words.createButton}</button>
          </p>
        </form>
      </section>
    </>
  );
}

const EMPTY_FORM: CreateForm = { name: "", plan: "standard", adminEmail: "", language: "en" };

/** The form's problems, each in the operator's language; none when it can be acted on. */
function createErrors(form: CreateForm, lang: Lang): CreateErrors {
  const words = WORDS[lang];
  const name = form.name.trim();
  const errors: CreateErrors = {};
  if (!name || [...name].length > EMPLOYER_NAME_MAX) errors.name = words.nameInvalid;
  if (!isPlan(form.plan)) errors.plan = words.planInvalid;
  const email = form.adminEmail.trim();
  if (!isEmailAddress(email)) errors.adminEmail = words.emailInvalid;
  if (form.language !== "en" && form.language !== "fr") errors.language = words.languageInvalid;
  return errors;
}

export const employerPages = new Hono<OperatorEnv>();

employerPages.get("/operator/employers", async (c) => {
  const lang = langOf(c);
  const words = WORDS[lang];
  const q = (c.req.query("q") ?? "").trim().slice(0, EMPLOYER_NAME_MAX);
  const results = q ? await searchEmployers(c.env, q, RESULTS) : undefined;
  const created = c.req.query("created") ?? "";
  const notice = ID.test(created) ? (c.req.query("unsent") !== undefined ? words.unsentNotice(created) : words.createdNotice(created)) : undefined;
  return page(c, words.title, <EmployersBody lang={lang} q={q} results={results} notice={notice} form={EMPTY_FORM} />);
});

employerPages.post("/operator/employers", async (c) => {
  const lang = langOf(c);
  const body = await c.req.parseBody();
  const form: CreateForm = { name: text(body.name), plan: text(body.plan), adminEmail: text(body.adminEmail), language: text(body.language) || "en" };
  const errors = createErrors(form, lang);
  if (Object.keys(errors).length > 0) return page(c, WORDS[lang].title, <EmployersBody lang={lang} q="" form={form} errors={errors} />, 422);

  const name = form.name.trim();
  const plan = form.plan as Plan;
  const employer = await audited(c, { action: "employer.create", target: "employer:new", note: `${name} (${plan})` }, () => createEmployer(c.env, { name, plan }), (made) => `employer:${made.id}`);
  const { emailed } = await inviteAdminByOperator(c.env, {
    employerId: employer.id,
    employer: employer.name,
    email: form.adminEmail,
    language: form.language as Lang,
    origin: publicOrigin(c),
    operator: c.get("operator"),
  });
  return c.redirect(`/operator/employers?q=${employer.id}&created=${employer.id}${emailed ? "" : "&unsent"}`, 303);
});

/** A form of the page refused (422): the plan's, or a suspension's or reinstatement's. */
type Refused = { plan: { value: string; error: string } } | { act: SuspensionAct; form: ActForm; errors: ActErrors };
type SuspensionAct = keyof typeof SUSPENSION_ACTIONS;

const SUSPENSION = {
  suspend: { perform: suspendEmployer, notice: "suspendedNotice", hint: "suspendHint" },
  reinstate: { perform: reinstateEmployer, notice: "reinstatedNotice", hint: "reinstateHint" },
} as const;

async function employerPage(c: OperatorContext, id: number, refused?: Refused) {
  const plan = refused && "plan" in refused ? refused.plan : undefined;
  const act = refused && "act" in refused ? refused : undefined;
  const lang = langOf(c);
  const words = WORDS[lang];
  const common = COMMON_WORDS[lang];
  const overview = await employerOverview(c.env, id);
  if (!overview) throw new NotFoundError();
  const { employer, jobs, people, keys, reports, suspended } = overview;
  // The act its state calls for; a refused one's form is shown again, its messages beside its fields.
  const next: SuspensionAct = act?.act ?? (suspended ? "reinstate" : "suspend");
  const done = c.req.query("done");
  const notice = refused ? undefined : c.req.query("saved") !== undefined ? words.saved : done === "suspend" || done === "reinstate" ? words[SUSPENSION[done].notice] : undefined;
  const body: Child = (
    <>
      {notice ? (
        <p role="status" class="notice">
          {notice}
        </p>
      ) : null}
      <dl>
        <dt>{words.id}</dt>
        <dd>{employer.id}</dd>
        <dt>{words.plan}</dt>
        <dd>{common.plans[employer.plan]}</dd>
        <dt>{words.shard}</dt>
        <dd>{employer.shard}</dd>
        <dt>{words.created}</dt>
        <dd>{formatMoment(lang, employer.createdAt * 1000)}</dd>
        <dt>{words.jobs}</dt>
        <dd>{words.jobCounts(jobs)}</dd>
        <dt>{words.standing}</dt>
        <dd>{suspended ? words.suspendedState : words.activeState}</dd>
      </dl>
      <section aria-labelledby="suspension-title">
        <h2 id="suspension-title">{words[next]}</h2>
        <p>{words[SUSPENSION[next].hint]}</p>
        <ActFormView
          lang={lang}
          action={`/operator/employers/${employer.id}/${next}`}
          prefix={next}
          button={words[next]}
          danger={next === "suspend"}
          form={act?.form}
          errors={act?.errors}
        />
      </section>
      <EmployerMoveSection c={c} employerId={employer.id} shard={employer.shard} />
      <section aria-labelledby="plan-title">
        <h2 id="plan-title">{words.plan}</h2>
        <form method="post" action={`/operator/employers/${employer.id}/plan`}>
          <Field id="plan" label={words.newPlan} error={plan?.error}>
            {(aria) => <PlanSelect id="plan" lang={lang} value={plan?.value ?? employer.plan} aria={aria} />}
          </Field>
          <p>
            <button type="submit">{words.changePlan}</button>
          </p>
        </form>
      </section>
      <section aria-labelledby="people-title">
        <h2 id="people-title">{words.people}</h2>
        <DataTable
          caption={words.people}
          empty={words.noPeople}
          rows={people}
          columns={[
            { header: words.email, cell: (row) => row.email },
            { header: words.role, cell: (row) => words.roles[row.role] },
            { header: words.state, cell: (row) => words.states[row.kind === "person" ? "person" : row.status!] },
            { header: words.since, cell: (row) => formatMoment(lang, row.createdAt) },
          ]}
        />
      </section>
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">{words.keys}</h2>
        <DataTable
          caption={words.keys}
          empty={words.noKeys}
          rows={keys}
          columns={[
            { header: words.prefix, cell: (row) => (row.prefix ? <code>{row.prefix}</code> : words.noPrefix) },
            { header: words.keyKind, cell: (row) => words.keyKinds[row.test ? "test" : "live"] },
            { header: words.since, cell: (row) => formatMoment(lang, row.createdAt) },
            { header: words.lastUsed, cell: (row) => (row.lastUsedAt === null ? words.never : formatMoment(lang, row.lastUsedAt)) },
          ]}
        />
      </section>
      <section aria-labelledby="reports-title">
        <h2 id="reports-title">{words.reports}</h2>
        <DataTable
          caption={words.reports}
          empty={words.noReports}
          rows={reports}
          columns={[
            { header: words.job, cell: (row) => `#${row.jobId} ${row.title ?? common.untitled}` },
            { header: words.reason, cell: (row) => common.reasons[row.reason] },
            { header: words.details, cell: (row) => row.details ?? "" },
            { header: words.reporter, cell: (row) => row.email ?? "" },
            { header: words.when, cell: (row) => formatMoment(lang, row.createdAt) },
          ]}
        />
      </section>
    </>
  );
  return page(c, `${employer.name} (#${employer.id})`, body, refused ? 422 : 200);
}

employerPages.get("/operator/employers/:id", (c) => employerPage(c, idParam(c)));

employerPages.post("/operator/employers/:id/plan", async (c) => {
  const id = idParam(c);
  const plan = text((await c.req.parseBody()).plan);
  if (!isPlan(plan)) return employerPage(c, id, { plan: { value: plan, error: WORDS[langOf(c)].planInvalid } });
  const employer = await findLiveEmployer(c.env, id);
  if (!employer) throw new NotFoundError();
  // The plan it has already: nothing to do, nothing to record.
  if (employer.plan !== plan) {
    await audited(c, { action: "employer.plan", target: `employer:${id}`, note: `${employer.plan} → ${plan}` }, async () => {
      if (!(await changePlan(c.env, id, plan))) throw new NotFoundError();
    });
  }
  return c.redirect(`/operator/employers/${id}?saved`, 303);
});

for (const act of ["suspend", "reinstate"] as const) {
  employerPages.post(`/operator/employers/:id/${act}`, async (c) => {
    const id = idParam(c);
    const form = actFormOf(await c.req.parseBody());
    const asked = parseAct(form, langOf(c));
    if ("errors" in asked) return employerPage(c, id, { act, form, errors: asked.errors });
    await audited(c, { action: SUSPENSION_ACTIONS[act], target: `employer:${id}`, ...asked }, async () => {
      if (!(await SUSPENSION[act].perform(c.env, { employerId: id, reason: asked.reason }))) throw new NotFoundError();
    });
    return c.redirect(`/operator/employers/${id}?done=${act}`, 303);
  });
}
