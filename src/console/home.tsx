import { Hono } from "hono";
import { employerName } from "../accounts/service";
import type { ConsoleEnv } from "./context";
import { langOf, page } from "./render";
import { SHELL_WORDS } from "./shell";

// DESIGN 25: the console's home — who is signed in, where to go, and signing out everywhere.

const WORDS = {
  en: {
    title: (employer: string) => `Employer console · ${employer}`,
    signedInAs: (email: string, role: string) => `Signed in as ${email}, ${role}.`,
    roles: { admin: "administrator", recruiter: "recruiter" },
    start: "Post a job",
    signOutEverywhere: "Sign out everywhere",
    signOutEverywhereHint: "Ends every session of yours, on every device.",
  },
  fr: {
    title: (employer: string) => `Console employeur · ${employer}`,
    signedInAs: (email: string, role: string) => `Connecté en tant que ${email}, ${role}.`,
    roles: { admin: "administrateur", recruiter: "recruteur" },
    start: "Publier une offre",
    signOutEverywhere: "Me déconnecter partout",
    signOutEverywhereHint: "Met fin à toutes vos sessions, sur tous vos appareils.",
  },
} as const;

export const homePage = new Hono<ConsoleEnv>();

homePage.get("/employer", async (c) => {
  const person = c.get("person");
  const words = WORDS[langOf(c)];
  const employer = (await employerName(c.env, person.employerId)) ?? `#${person.employerId}`;
  return page(
    c,
    words.title(employer),
    <>
      <p>{words.signedInAs(person.email, words.roles[person.role])}</p>
      <ul>
        <li>
          <a href="/employer/jobs/new">{words.start}</a>
        </li>
        <li>
          <a href="/employer/jobs">{SHELL_WORDS[langOf(c)].jobs}</a>
        </li>
        <li>
          <a href="/employer/applications">{SHELL_WORDS[langOf(c)].applications}</a>
        </li>
      </ul>
      <form method="post" action="/employer/sign-out?everywhere">
        <p>
          <small id="everywhere-hint">{words.signOutEverywhereHint}</small>
        </p>
        <button type="submit" aria-describedby="everywhere-hint">
          {words.signOutEverywhere}
        </button>
      </form>
    </>,
  );
});
