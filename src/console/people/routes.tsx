import { Hono } from "hono";
import { changeRole, invitePerson, peopleOf, removePerson, type PersonChange } from "../../accounts/service";
import { ROLES, type Role } from "../../accounts/tokens";
import { NotFoundError } from "../../http/problem";
import { publicOrigin, type ConsoleContext, type ConsoleEnv } from "../context";
import { adminOnly, langOf, page } from "../render";
import { EMAIL } from "../sign-in";
import { PEOPLE_WORDS, PeoplePage, type Done, type InviteForm, type RoleError } from "./page";

// DESIGN 25, 25a: people in the console, for admins — invite (emailed after the answer), change
// a role, remove (their sessions end at once). The employer's last admin stays one (409). Another
// employer's person: 404.

export const peoplePages = new Hono<ConsoleEnv>();
peoplePages.use("/employer/people", adminOnly);
peoplePages.use("/employer/people/*", adminOnly);

const DONE: Done[] = ["invited", "saved", "removed"];
const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

async function peoplePage(c: ConsoleContext, shown: { done?: Done; form?: InviteForm; roleError?: RoleError } = {}) {
  const person = c.get("person");
  const { people, invitations } = await peopleOf(c.env, person.employerId);
  // The form again only for a person of the employer's: another's is a 404, whatever was chosen.
  if (shown.roleError && !people.some((one) => one.id === shown.roleError!.personId)) throw new NotFoundError();
  const status = shown.form || shown.roleError ? 422 : 200;
  return page(c, PEOPLE_WORDS[langOf(c)].title, <PeoplePage lang={langOf(c)} me={person.personId} people={people} invitations={invitations} {...shown} />, status);
}

/** `{id}` as a person's id; anything else names nobody. */
function personIdOf(c: ConsoleContext): number {
  const id = c.req.param("id") ?? "";
  if (!/^[1-9]\d{0,15}$/.test(id) || !Number.isSafeInteger(Number(id))) throw new NotFoundError();
  return Number(id);
}

/** A change done: back to the list, which says so; refused as it would leave no admin: 409, nothing changed. */
function answerChange(c: ConsoleContext, change: PersonChange, done: Done) {
  if (change === "not-found") throw new NotFoundError();
  if (change === "done") return c.redirect(`/employer/people?${done}`, 303);
  const words = PEOPLE_WORDS[langOf(c)];
  return page(
    c,
    words.lastAdminTitle,
    <>
      <p>{words.lastAdmin}</p>
      <p>
        <a href="/employer/people">{words.back}</a>
      </p>
    </>,
    409,
  );
}

peoplePages.get("/employer/people", (c) => peoplePage(c, { done: DONE.find((done) => c.req.query(done) !== undefined) }));

peoplePages.post("/employer/people", async (c) => {
  const body = await c.req.parseBody();
  const words = PEOPLE_WORDS[langOf(c)];
  const email = typeof body.email === "string" ? body.email.trim() : "";
  const role = typeof body.role === "string" ? body.role : "";
  const errors: InviteForm["errors"] = {
    ...((email.length > 254 || !EMAIL.test(email)) && { email: words.emailInvalid }),
    ...(!isRole(role) && { role: words.roleInvalid }),
  };
  if (errors.email || !isRole(role)) return peoplePage(c, { form: { email, role, errors } });
  const person = c.get("person");
  const invited = await invitePerson(c.env, { employerId: person.employerId, email, role, inviter: { email: person.email, language: person.language }, origin: publicOrigin(c) });
  if (invited === "person-already") return peoplePage(c, { form: { email, role, errors: { email: words.emailTaken } } });
  // Sent after the answer: the admin does not wait on the mail service.
  if (invited.send) c.executionCtx.waitUntil(invited.send());
  return c.redirect("/employer/people?invited", 303);
});

peoplePages.post("/employer/people/:id/role", async (c) => {
  const personId = personIdOf(c);
  const { role } = await c.req.parseBody();
  if (!isRole(role)) return peoplePage(c, { roleError: { personId, message: PEOPLE_WORDS[langOf(c)].roleInvalid } });
  return answerChange(c, await changeRole(c.env, c.get("person").employerId, personId, role), "saved");
});

peoplePages.post("/employer/people/:id/remove", async (c) => answerChange(c, await removePerson(c.env, c.get("person").employerId, personIdOf(c)), "removed"));
