import { Hono } from "hono";
import type { Child } from "hono/jsx";
import { ConflictError, NotFoundError, ProblemError, type FieldError } from "../http/problem";
import { shardNumbers } from "../shards/bindings";
import { moveProgress, MoveRefused, startMove, type MoveStatus } from "../shards/moves";
import type { OnlineMoveStage } from "../shards/move-status";
import { Field } from "../ui/fields";
import type { Lang } from "../ui/i18n";
import { DataTable } from "../ui/table";
import { audited } from "./audit";
import { idParam, langOf, wantsJson, type OperatorContext, type OperatorEnv } from "./context";
import { page } from "./render";
import { formatMoment } from "./words";

// DESIGN 22b: the operator moves an employer (its test space with it) to another shard and follows
// the move: POST /operator/shards/moves starts it (audited as `shards.move`), GET
// /operator/shards/moves/{employerId} says how it goes. JSON in and out for a command (an Access
// service token, or `Accept: application/json`: `npm run shards -- move`), pages for the console.
// The move itself runs in its Durable Object (src/shards/moves.ts); neither route waits for it.

const WORDS = {
  en: {
    title: (id: number) => `Move of employer ${id}`,
    startTitle: "Move an employer",
    section: "Move to another shard",
    hint: "The employer keeps working while its rows are copied; its writes are refused for a few seconds at most, at the end. Its test space moves with it.",
    employerId: "Employer id",
    to: "Target shard",
    chooseShard: "Choose a shard",
    start: "Start the move",
    onlyShard: "This deployment has one shard: there is nowhere to move to.",
    current: "Its latest move",
    follow: "Follow the move",
    refresh: "Refresh",
    employer: "The employer's page",
    refused: "The move was refused; nothing changed:",
    none: "This employer was never moved by the Worker.",
    stage: "Stage",
    stages: {
      copying: "copying its rows",
      verifying: "checking every row",
      repairing: "copying again the rows that differ",
      "catching-up": "catching up with its changes",
      frozen: "frozen: the last changes, the checks and the flip",
      flipped: "flipped: the target holds it",
      keys: "its API keys repointed",
      cleaning: "deleting its rows from the source",
      done: "done",
      failed: "failed: it lives where it lived",
    } satisfies Record<OnlineMoveStage, string>,
    from: "From shard",
    toShard: "To shard",
    started: "Started",
    updated: "Updated",
    finished: "Finished",
    copied: "Rows copied",
    synced: "Rows copied again",
    deleted: "Rows deleted from the source",
    rounds: "Catch-up rounds (changes each, latest last)",
    noRounds: "none yet",
    freezes: "Freezes",
    noFreezes: "No freeze yet.",
    at: "When",
    ms: "Writes refused for",
    outcome: "Outcome",
    outcomes: { flipped: "flipped", thawed: "thawed" },
    why: "Why",
    error: "Last error",
    result: "Result",
    resultLine: (rows: number, ms: number) => `${rows} rows moved in ${(ms / 1000).toFixed(1)} s`,
    seconds: (ms: number) => `${(ms / 1000).toFixed(2)} s`,
    employerIdInvalid: "employerId must be an employer id: a whole number from 1.",
    toInvalid: "to must be a shard number: a whole number from 0.",
  },
  fr: {
    title: (id: number) => `Déplacement de l'employeur ${id}`,
    startTitle: "Déplacer un employeur",
    section: "Déplacer vers un autre fragment",
    hint: "L'employeur continue de travailler pendant la copie de ses lignes; ses écritures sont refusées quelques secondes au plus, à la fin. Son espace de test le suit.",
    employerId: "Numéro de l'employeur",
    to: "Fragment cible",
    chooseShard: "Choisir un fragment",
    start: "Lancer le déplacement",
    onlyShard: "Ce déploiement n'a qu'un fragment : il n'y a nulle part où aller.",
    current: "Son dernier déplacement",
    follow: "Suivre le déplacement",
    refresh: "Actualiser",
    employer: "La page de l'employeur",
    refused: "Le déplacement a été refusé; rien n'a changé :",
    none: "Cet employeur n'a jamais été déplacé par le Worker.",
    stage: "Étape",
    stages: {
      copying: "copie de ses lignes",
      verifying: "vérification de chaque ligne",
      repairing: "nouvelle copie des lignes qui diffèrent",
      "catching-up": "rattrapage de ses changements",
      frozen: "gelé : derniers changements, vérifications et bascule",
      flipped: "basculé : la cible le détient",
      keys: "ses clés d'API redirigées",
      cleaning: "suppression de ses lignes de la source",
      done: "terminé",
      failed: "échoué : il reste où il était",
    } satisfies Record<OnlineMoveStage, string>,
    from: "Du fragment",
    toShard: "Vers le fragment",
    started: "Commencé",
    updated: "Mis à jour",
    finished: "Terminé",
    copied: "Lignes copiées",
    synced: "Lignes copiées de nouveau",
    deleted: "Lignes supprimées de la source",
    rounds: "Rondes de rattrapage (changements de chacune, la dernière à la fin)",
    noRounds: "aucune pour l'instant",
    freezes: "Gels",
    noFreezes: "Aucun gel pour l'instant.",
    at: "Quand",
    ms: "Écritures refusées pendant",
    outcome: "Issue",
    outcomes: { flipped: "basculé", thawed: "dégelé" },
    why: "Pourquoi",
    error: "Dernière erreur",
    result: "Résultat",
    resultLine: (rows: number, ms: number) => `${rows} lignes déplacées en ${(ms / 1000).toFixed(1).replace(".", ",")} s`,
    seconds: (ms: number) => `${(ms / 1000).toFixed(2).replace(".", ",")} s`,
    employerIdInvalid: "Le numéro d'employeur doit être un nombre entier à partir de 1.",
    toInvalid: "Le fragment doit être un nombre entier à partir de 0.",
  },
} as const;

/** The audit's name of the act. */
const MOVE_ACTION = "shards.move";

const movePath = (employerId: number) => `/operator/shards/moves/${employerId}`;

/** The move's form as it came (as typed, for the page again). */
interface MoveForm {
  employerId: string;
  to: string;
}
type MoveErrors = Partial<Record<keyof MoveForm, string>>;

const EMPLOYER_ID = /^[1-9][0-9]{0,15}$/;
const SHARD = /^(0|[1-9][0-9]{0,5})$/;

/**
 * The body's two members: JSON (numbers) or a form (digits). A JSON member of another type, or a
 * body that does not parse, is kept as text no pattern accepts, so that it is named as broken.
 */
async function moveFormOf(c: OperatorContext): Promise<MoveForm> {
  if ((c.req.header("Content-Type") ?? "").includes("application/json")) {
    const body: unknown = await c.req.json().catch(() => null);
    const member = (name: string) => {
      const value = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
      return typeof value === "number" ? String(value) : "(not a number)";
    };
    return { employerId: member("employerId"), to: member("to") };
  }
  const body = await c.req.parseBody();
  const field = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  return { employerId: field(body.employerId), to: field(body.to) };
}

/** Every broken field (none: the move can be asked), in the operator's language. */
function moveErrors(form: MoveForm, lang: Lang): MoveErrors {
  const words = WORDS[lang];
  return {
    ...(!(EMPLOYER_ID.test(form.employerId) && Number.isSafeInteger(Number(form.employerId))) && { employerId: words.employerIdInvalid }),
    ...(!SHARD.test(form.to) && { to: words.toInvalid }),
  };
}

/** The form to start a move: the employer (hidden on its own page) and the target shard. */
function MoveFormView(props: { lang: Lang; shards: number[]; from?: number; form: MoveForm; errors?: MoveErrors; hiddenEmployer?: boolean }) {
  const words = WORDS[props.lang];
  const errors = props.errors ?? {};
  const targets = props.shards.filter((shard) => shard !== props.from);
  if (targets.length === 0) return <p>{words.onlyShard}</p>;
  return (
    <form method="post" action="/operator/shards/moves">
      {props.hiddenEmployer ? (
        <input type="hidden" name="employerId" value={props.form.employerId} />
      ) : (
        <Field id="move-employer" label={words.employerId} error={errors.employerId}>
          {(aria) => <input id="move-employer" name="employerId" inputmode="numeric" value={props.form.employerId} required {...aria} />}
        </Field>
      )}
      <Field id="move-to" label={words.to} error={errors.to}>
        {(aria) => (
          <select id="move-to" name="to" required {...aria}>
            {/* No shard chosen for the operator: a move is asked for on purpose. */}
            <option value="">{words.chooseShard}</option>
            {targets.map((shard) => (
              <option value={String(shard)} selected={String(shard) === props.form.to}>
                {String(shard)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p>
        <button type="submit">{words.start}</button>
      </p>
    </form>
  );
}

/** A move's status as the console shows it: stage, shards, times, rows, rounds, freezes, outcome, error. */
function MoveStatusView(props: { lang: Lang; status: MoveStatus }) {
  const words = WORDS[props.lang];
  const { status } = props;
  const moment = (ms: number) => formatMoment(props.lang, ms);
  return (
    <>
      <dl>
        <dt>{words.stage}</dt>
        <dd>{words.stages[status.stage]}</dd>
        <dt>{words.from}</dt>
        <dd>{status.from}</dd>
        <dt>{words.toShard}</dt>
        <dd>{status.to}</dd>
        <dt>{words.started}</dt>
        <dd>{moment(status.startedAt)}</dd>
        <dt>{words.updated}</dt>
        <dd>{moment(status.updatedAt)}</dd>
        {status.finishedAt !== null ? (
          <>
            <dt>{words.finished}</dt>
            <dd>{moment(status.finishedAt)}</dd>
          </>
        ) : null}
        <dt>{words.copied}</dt>
        <dd>{status.copied}</dd>
        <dt>{words.synced}</dt>
        <dd>{status.synced}</dd>
        <dt>{words.deleted}</dt>
        <dd>{status.deleted}</dd>
        <dt>{words.rounds}</dt>
        <dd>{status.rounds.length ? status.rounds.join(", ") : words.noRounds}</dd>
        {status.outcome ? (
          <>
            <dt>{words.result}</dt>
            <dd>
              {words.resultLine(status.outcome.rows, status.outcome.ms)} <code>{JSON.stringify(status.outcome)}</code>
            </dd>
          </>
        ) : null}
        {status.error ? (
          <>
            <dt>{words.error}</dt>
            <dd>
              {moment(status.error.at)}: {status.error.message}
            </dd>
          </>
        ) : null}
      </dl>
      <DataTable
        caption={words.freezes}
        empty={words.noFreezes}
        rows={status.freezes}
        columns={[
          { header: words.at, cell: (freeze) => moment(freeze.at) },
          { header: words.ms, cell: (freeze) => words.seconds(freeze.ms) },
          { header: words.outcome, cell: (freeze) => words.outcomes[freeze.outcome] },
          { header: words.why, cell: (freeze) => freeze.why ?? "" },
        ]}
      />
    </>
  );
}

/** The employer page's section: its latest move (a link to follow it) and the form to start one. */
export async function EmployerMoveSection(props: { c: OperatorContext; employerId: number; shard: number }) {
  const lang = langOf(props.c);
  const words = WORDS[lang];
  const status = await moveProgress(props.c.env, props.employerId);
  const running = status !== null && status.stage !== "done" && status.stage !== "failed";
  return (
    <section aria-labelledby="move-title">
      <h2 id="move-title">{words.section}</h2>
      {status ? (
        <>
          <h3>{words.current}</h3>
          <MoveStatusView lang={lang} status={status} />
          <p>
            <a href={movePath(props.employerId)}>{words.follow}</a>
          </p>
        </>
      ) : null}
      {running ? null : (
        <>
          <p>{words.hint}</p>
          <MoveFormView lang={lang} shards={shardNumbers(props.c.env)} from={props.shard} form={{ employerId: String(props.employerId), to: "" }} hiddenEmployer />
        </>
      )}
    </section>
  );
}

/** The page to ask a move again: the form with what was typed, and why it was refused (422 beside the fields, 409 above). */
function startPage(c: OperatorContext, form: MoveForm, status: 409 | 422, problem: { errors?: MoveErrors; refused?: string }) {
  const lang = langOf(c);
  const words = WORDS[lang];
  const employerId = EMPLOYER_ID.test(form.employerId) ? form.employerId : null;
  return page(
    c,
    words.startTitle,
    <>
      {problem.refused ? (
        <p role="alert">
          {words.refused} {problem.refused}
        </p>
      ) : null}
      <MoveFormView lang={lang} shards={shardNumbers(c.env)} form={form} errors={problem.errors} />
      {employerId ? (
        <p>
          <a href={`/operator/employers/${employerId}`}>{words.employer}</a>
        </p>
      ) : null}
    </>,
    status,
  );
}

export const movePages = new Hono<OperatorEnv>();

movePages.post("/operator/shards/moves", async (c) => {
  const json = wantsJson(c);
  const form = await moveFormOf(c);
  const errors = moveErrors(form, json ? "en" : langOf(c));
  if (Object.keys(errors).length > 0) {
    if (!json) return startPage(c, form, 422, { errors });
    const fields = Object.entries(errors).map(([field, message]): FieldError => ({ field, message }));
    throw new ProblemError(422, "validation-error", "Your request is not valid.", "A move needs employerId (an employer id) and to (a shard number); see errors.", { errors: fields });
  }
  const request = { employerId: Number(form.employerId), to: Number(form.to) };
  let status: MoveStatus;
  try {
    status = await audited(c, { action: MOVE_ACTION, target: `employer:${request.employerId}`, note: `to shard ${request.to}` }, () => startMove(c.env, request));
  } catch (error) {
    if (!(error instanceof MoveRefused)) throw error;
    if (json) throw new ConflictError("move-refused", error.message);
    return startPage(c, form, 409, { refused: error.message });
  }
  const location = movePath(request.employerId);
  if (!json) return c.redirect(location, 303);
  // Under way (just started, or the same move asked again): 202; the same move already done: 200.
  return c.json(status, status.stage === "done" ? 200 : 202, { Location: location });
});

movePages.get("/operator/shards/moves/:id", async (c) => {
  const employerId = idParam(c);
  const status = await moveProgress(c.env, employerId);
  if (wantsJson(c)) {
    if (!status) throw new NotFoundError(`Employer ${employerId} was never moved by the Worker.`);
    return c.json(status);
  }
  const lang = langOf(c);
  const words = WORDS[lang];
  const body: Child = status ? (
    <>
      <MoveStatusView lang={lang} status={status} />
      <p>
        <a href={movePath(employerId)}>{words.refresh}</a> · <a href={`/operator/employers/${employerId}`}>{words.employer}</a>
      </p>
    </>
  ) : (
    <p>{words.none}</p>
  );
  return page(c, words.title(employerId), body, status ? 200 : 404);
});
