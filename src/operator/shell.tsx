import type { Child } from "hono/jsx";
import type { Lang } from "../ui/i18n";
import { Layout } from "../ui/layout";

// DESIGN 26: the shell of every page of the operator's console, on src/ui's layout: its sections,
// who is signed in (through Access), the other language (a POST: a GET changes nothing) and
// Access's own sign-out.

export const SHELL_WORDS = {
  en: {
    console: "Operator console",
    navigation: "Operator console",
    queue: "Reports",
    employers: "Employers",
    people: "Job seekers",
    audit: "Audit",
    signedInAs: (operator: string) => `Signed in as ${operator}`,
    otherLanguage: "Français",
    signOut: "Sign out",
    notFoundTitle: "Not found",
    notFound: "There is nothing here.",
    errorTitle: (status: number) => (status >= 500 ? "Not done: try again in a moment" : "This cannot be done"),
    errorText: (status: number) =>
      status >= 500 ? "The service is busy or something went wrong. If the act was recorded, the audit shows whether it was done." : "The request was refused. Nothing was changed.",
  },
  fr: {
    console: "Console de l'exploitant",
    navigation: "Console de l'exploitant",
    queue: "Signalements",
    employers: "Employeurs",
    people: "Chercheurs d'emploi",
    audit: "Journal",
    signedInAs: (operator: string) => `Connecté en tant que ${operator}`,
    otherLanguage: "English",
    signOut: "Me déconnecter",
    notFoundTitle: "Introuvable",
    notFound: "Il n'y a rien ici.",
    errorTitle: (status: number) => (status >= 500 ? "Non fait : réessayez dans un instant" : "Ceci ne peut pas se faire"),
    errorText: (status: number) =>
      status >= 500 ? "Le service est occupé ou une erreur s'est produite. Si l'acte a été consigné, le journal indique s'il a été fait." : "La demande a été refusée. Rien n'a changé.",
  },
} as const;

/** The console's sections, in the navigation's order. */
export const SECTIONS: { key: "queue" | "employers" | "people" | "audit"; path: string }[] = [
  { key: "queue", path: "/operator" },
  { key: "employers", path: "/operator/employers" },
  { key: "people", path: "/operator/people" },
  { key: "audit", path: "/operator/audit" },
];

/** The section a path belongs to (the longest section path it starts with). */
function currentSection(path: string): string | undefined {
  return SECTIONS.filter((section) => path === section.path || (section.path !== "/operator" && path.startsWith(`${section.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path;
}

function OperatorHeader(props: { lang: Lang; operator: string; path: string; back: string }) {
  const words = SHELL_WORDS[props.lang];
  const other: Lang = props.lang === "en" ? "fr" : "en";
  const current = currentSection(props.path);
  return (
    <header>
      <nav aria-label={words.navigation}>
        <ul>
          {SECTIONS.map((section) => (
            <li>
              <a href={section.path} aria-current={section.path === current ? "page" : undefined}>
                {words[section.key]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div>
        <span>{words.signedInAs(props.operator)}</span>{" "}
        <form method="post" action="/operator/language" class="inline">
          <input type="hidden" name="language" value={other} />
          <input type="hidden" name="back" value={props.back} />
          <button type="submit" class="link" lang={other}>
            {words.otherLanguage}
          </button>
        </form>{" "}
        <a href="/cdn-cgi/access/logout">{words.signOut}</a>
      </div>
    </header>
  );
}

/** Every page of the console: its title as `<h1>`, the header, the same address in both languages. */
export function OperatorPage(props: { lang: Lang; title: string; address: string; operator: string; path: string; back: string; children: Child }) {
  const words = SHELL_WORDS[props.lang];
  return (
    <Layout
      lang={props.lang}
      title={`${props.title} · ${words.console}`}
      description={words.console}
      addresses={{ en: props.address, fr: props.address }}
      header={<OperatorHeader lang={props.lang} operator={props.operator} path={props.path} back={props.back} />}
      footer={<footer />}
      bodyClass="console"
    >
      <h1>{props.title}</h1>
      {props.children}
    </Layout>
  );
}
