import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { FRAUD_POLICY, HOME } from "./paths";
import type { Lang } from "./i18n";
import { scriptJson } from "./json-ld";
import { ICON_PATH, STYLESHEET_PATH } from "./assets";

// DESIGN 16b, 18: the shell of every page a person sees — the board's pages, the alerts' pages,
// the consoles to come. It knows no capability: a page brings its content, and may bring a header
// and a footer of its own (a console's navigation); without them, the site's.

export interface PageMeta {
  lang: Lang;
  title: string;
  description: string;
  /** Absolute addresses of this page in each language (DESIGN 18a). */
  addresses: Record<Lang, string>;
  /** A schema.org object for the page's JSON-LD block. */
  jsonLd?: unknown;
}

/** The words of the site's own header and footer. */
const SHELL_WORDS = {
  en: { site: "Job board", otherLanguage: "Français", search: "Search jobs", fraudPolicy: "Fraudulent postings" },
  fr: { site: "Site d'emploi", otherLanguage: "English", search: "Chercher des emplois", fraudPolicy: "Offres frauduleuses" },
} as const;

const otherLang = (lang: Lang): Lang => (lang === "en" ? "fr" : "en");

/** The site's header: its name (home) and the same page in the other language. */
function SiteHeader(props: { lang: Lang; addresses: Record<Lang, string> }) {
  const { lang, addresses } = props;
  const other = otherLang(lang);
  return (
    <header>
      <a href={HOME[lang]}>{SHELL_WORDS[lang].site}</a>
      <a href={addresses[other]} hreflang={other} lang={other}>
        {SHELL_WORDS[lang].otherLanguage}
      </a>
    </header>
  );
}

/** The site's footer: the search, and the policy on fraudulent postings (DESIGN 18). */
function SiteFooter(props: { lang: Lang }) {
  const words = SHELL_WORDS[props.lang];
  return (
    <footer>
      <a href={HOME[props.lang]}>{words.search}</a> · <a href={FRAUD_POLICY[props.lang]}>{words.fraudPolicy}</a>
    </footer>
  );
}

/**
 * Every page: `<html lang>`, title, description, canonical, hreflang both ways, Open Graph, the one
 * stylesheet; then its header, its content in `<main>`, its footer.
 */
export function Layout(props: PageMeta & { header?: Child; footer?: Child; bodyClass?: string; children: Child }) {
  const { lang, title, description, addresses } = props;
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        <link rel="canonical" href={addresses[lang]} />
        <link rel="alternate" hreflang="en" href={addresses.en} />
        <link rel="alternate" hreflang="fr" href={addresses.fr} />
        <link rel="alternate" hreflang="x-default" href={addresses.en} />
        <meta property="og:type" content="website" />
        <meta property="og:title" content={title} />
        <meta property="og:description" content={description} />
        <meta property="og:url" content={addresses[lang]} />
        <meta property="og:locale" content={lang === "fr" ? "fr_CA" : "en_CA"} />
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        <link rel="icon" href={ICON_PATH} type="image/svg+xml" />
        {props.jsonLd ? <script type="application/ld+json">{raw(scriptJson(props.jsonLd))}</script> : null}
      </head>
      <body class={props.bodyClass}>
        {props.header ?? <SiteHeader lang={lang} addresses={addresses} />}
        <main>{props.children}</main>
        {props.footer ?? <SiteFooter lang={lang} />}
      </body>
      </html>
    </>
  );
}
