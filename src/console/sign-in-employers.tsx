import { Hono } from "hono";
import { employersOf, switchEmployer } from "../accounts/service";
import { setSessionCookie } from "../accounts/session";
import { NotFoundError } from "../http/problem";
import { FieldError, tieToError } from "../ui/fields";
import type { Lang } from "../ui/i18n";
import { safeNext, type ConsoleContext, type ConsoleEnv } from "./context";
import { langOf, page } from "./render";

// DESIGN 25: a person is an address with a role in one employer, and one address may belong to
// several. Signed in by link, such a person is sent here to choose the employer to work for (the
// session is first for the one they joined first); the shell's "Switch employer" comes back here.
// Choosing is a POST: a new session for the address's person in that employer, the old one ended.
// Only an employer the address belongs to can be chosen; any other is a 404 and changes nothing.

export const EMPLOYERS_PATH = "/employer/employers";

const WORDS = {
  en: {
    title: "Choose an employer",
    intro: (email: string) => `${email} belongs to several employers. Choose the one to work for now; you can switch at any time from the top of every page.`,
    employer: "Employer",
    current: "now",
    missing: "Choose an employer.",
    go: "Continue",
  },
  fr: {
    title: "Choisir un employeur",
    intro: (email: string) => `${email} appartient à plusieurs employeurs. Choisissez celui pour lequel travailler maintenant; vous pouvez en changer à tout moment depuis le haut de chaque page.`,
    employer: "Employeur",
    current: "actuel",
    missing: "Choisissez un employeur.",
    go: "Continuer",
  },
} as const;

const FIELD = "employer";
const EMPLOYER_ID = /^[1-9][0-9]{0,9}$/;

function ChoicePage(props: { lang: Lang; email: string; employers: { id: number; name: string }[]; current: number; next?: string; error?: string }) {
  const words = WORDS[props.lang];
  return (
    <>
      <p>{words.intro(props.email)}</p>
      <form method="post" action={EMPLOYERS_PATH}>
        {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
        <fieldset id={FIELD} {...tieToError(FIELD, props.error)}>
          <legend>{words.employer}</legend>
          {props.employers.map((employer, i) => (
            <p>
              <label>
                <input type="radio" name={FIELD} value={String(employer.id)} checked={employer.id === props.current} required={i === 0} /> {employer.name}
                {employer.id === props.current ? ` (${words.current})` : ""}
              </label>
            </p>
          ))}
          <FieldError id={FIELD} message={props.error} />
        </fieldset>
        <button type="submit">{words.go}</button>
      </form>
    </>
  );
}

async function choicePage(c: ConsoleContext, next: string | undefined, error?: string) {
  const lang = langOf(c);
  const person = c.get("person");
  const employers = await employersOf(c.env, person.email);
  return page(c, WORDS[lang].title, <ChoicePage lang={lang} email={person.email} employers={employers} current={person.employerId} next={next} error={error} />, error ? 422 : 200);
}

export const employerChoicePages = new Hono<ConsoleEnv>();

employerChoicePages.get(EMPLOYERS_PATH, (c) => choicePage(c, safeNext(c.req.query("next"))));

employerChoicePages.post(EMPLOYERS_PATH, async (c) => {
  const form = await c.req.parseBody();
  const next = safeNext(form.next);
  const chosen = form[FIELD];
  if (chosen === undefined || chosen === "") return choicePage(c, next, WORDS[langOf(c)].missing);
  if (typeof chosen !== "string" || !EMPLOYER_ID.test(chosen)) throw new NotFoundError();
  const cookie = await switchEmployer(c.env, c.get("person").sessionId, Number(chosen));
  if (!cookie) throw new NotFoundError();
  setSessionCookie(c, cookie);
  return c.redirect(next ?? "/employer", 303);
});
