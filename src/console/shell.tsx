import type { Child } from "hono/jsx";
import type { SignedIn } from "../accounts/repository";
import type { Role } from "../accounts/tokens";
import type { Lang } from "../ui/i18n";
import { Layout } from "../ui/layout";

// DESIGN 25: the shell of every console page, on src/ui's layout. Signed in, its header is the
// console's navigation (admins see the integration's pages too), the other language and sign-out
// as buttons (POSTs: a GET changes nothing); before sign-in, the console's name and a link to the
// page in the other language.

export const SHELL_WORDS = {
  en: {
    console: "Employer console",
    otherLanguage: "Français",
    navigation: "Console",
    home: "Home",
    jobs: "Jobs",
    applications: "Applications",
    keys: "API keys",
    webhooks: "Webhooks",
    people: "People",
    settings: "Settings",
    passkeys: "Passkeys",
    signOut: "Sign out",
    employerIs: (name: string) => `Employer: ${name}`,
    switchEmployer: "Switch employer",
    adminOnlyTitle: "For administrators only",
    adminOnly: "Only an administrator of your employer can open this page. Ask one of them to change your role.",
    notFoundTitle: "Not found",
    notFound: "There is nothing here, or it is not yours to see.",
    confirm: "Yes, I am sure",
    saved: "Saved.",
    errorTitle: (status: number) => (status >= 500 ? "Not done: try again in a moment" : "This cannot be done"),
    errorText: (status: number) =>
      status >= 500 ? "The service is busy or something went wrong on our side. Nothing was changed; try again in a moment." : "The request was refused. Nothing was changed.",
  },
  fr: {
    console: "Console employeur",
    otherLanguage: "English",
    navigation: "Console",
    home: "Accueil",
    jobs: "Offres",
    applications: "Candidatures",
    keys: "Clés d'API",
    webhooks: "Webhooks",
    people: "Personnes",
    settings: "Paramètres",
    passkeys: "Clés d'accès",
    signOut: "Me déconnecter",
    employerIs: (name: string) => `Employeur : ${name}`,
    switchEmployer: "Changer d'employeur",
    adminOnlyTitle: "Réservé aux administrateurs",
    adminOnly: "Seul un administrateur de votre employeur peut ouvrir cette page. Demandez à l'un d'eux de changer votre rôle.",
    notFoundTitle: "Introuvable",
    notFound: "Il n'y a rien ici, ou ce n'est pas à vous de le voir.",
    confirm: "Oui, j'en suis sûr",
    saved: "Enregistré.",
    errorTitle: (status: number) => (status >= 500 ? "Non fait : réessayez dans un instant" : "Ceci ne peut pas se faire"),
    errorText: (status: number) =>
      status >= 500 ? "Le service est occupé ou une erreur s'est produite de notre côté. Rien n'a changé; réessayez dans un instant." : "La demande a été refusée. Rien n'a changé.",
  },
} as const;

/** The console's sections: where each is, and who sees it. */
const SECTIONS: { key: "home" | "jobs" | "applications" | "keys" | "webhooks" | "people" | "settings" | "passkeys"; path: string; roles: Role[] }[] = [
  { key: "home", path: "/employer", roles: ["admin", "recruiter"] },
  { key: "jobs", path: "/employer/jobs", roles: ["admin", "recruiter"] },
  { key: "applications", path: "/employer/applications", roles: ["admin", "recruiter"] },
  { key: "keys", path: "/employer/keys", roles: ["admin"] },
  { key: "webhooks", path: "/employer/webhooks", roles: ["admin"] },
  { key: "people", path: "/employer/people", roles: ["admin"] },
  { key: "settings", path: "/employer/settings", roles: ["admin"] },
  { key: "passkeys", path: "/employer/passkeys", roles: ["admin", "recruiter"] },
];

/** The section a path belongs to (the longest section path it starts with). */
function currentSection(path: string): string | undefined {
  return SECTIONS.filter((section) => path === section.path || (section.path !== "/employer" && path.startsWith(`${section.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path;
}

function SignedInHeader(props: { lang: Lang; person: SignedIn; path: string; employer?: string }) {
  const words = SHELL_WORDS[props.lang];
  const other: Lang = props.lang === "en" ? "fr" : "en";
  const current = currentSection(props.path);
  return (
    <header>
      <nav aria-label={words.navigation}>
        <ul>
          {SECTIONS.filter((section) => section.roles.includes(props.person.role)).map((section) => (
            <li>
              <a href={section.path} aria-current={section.path === current ? "page" : undefined}>
                {words[section.key]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div>
        {props.employer ? (
          <>
            {words.employerIs(props.employer)} <a href="/employer/employers">{words.switchEmployer}</a>{" "}
          </>
        ) : null}
        <form method="post" action="/employer/language" class="inline">
          <input type="hidden" name="language" value={other} />
          <button type="submit" class="link" lang={other}>
            {words.otherLanguage}
          </button>
        </form>{" "}
        <form method="post" action="/employer/sign-out" class="inline">
          <button type="submit" class="link">
            {words.signOut}
          </button>
        </form>
      </div>
    </header>
  );
}

function SignedOutHeader(props: { lang: Lang; switchTo?: string }) {
  const words = SHELL_WORDS[props.lang];
  const other: Lang = props.lang === "en" ? "fr" : "en";
  return (
    <header>
      <a href="/employer">{words.console}</a>
      {props.switchTo ? (
        <a href={props.switchTo} hreflang={other} lang={other}>
          {words.otherLanguage}
        </a>
      ) : null}
    </header>
  );
}

/**
 * Every console page: its title as `<h1>`, the console's header (signed in: `person` and the
 * page's `path`; for an address of several employers, the `employer`'s name and the way to
 * switch), the same address in both languages (DESIGN 25a).
 */
export function ConsolePage(props: { lang: Lang; title: string; address: string; person?: SignedIn; path?: string; employer?: string; switchTo?: string; children: Child }) {
  const words = SHELL_WORDS[props.lang];
  const header = props.person ? (
    <SignedInHeader lang={props.lang} person={props.person} path={props.path ?? ""} employer={props.employer} />
  ) : (
    <SignedOutHeader lang={props.lang} switchTo={props.switchTo} />
  );
  return (
    <Layout lang={props.lang} title={props.title} description={words.console} addresses={{ en: props.address, fr: props.address }} header={header} footer={<footer />} bodyClass="console">
      <h1>{props.title}</h1>
      {props.children}
    </Layout>
  );
}
