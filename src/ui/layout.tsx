import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { FRAUD_POLICY, HOME } from "./paths";
import { WORDS } from "../pages/i18n";
import type { Lang } from "./i18n";
import { scriptJson } from "./json-ld";
import { ICON_PATH, STYLESHEET_PATH } from "./assets";

export interface PageMeta {
  lang: Lang;
  title: string;
  description: string;
  /** Absolute addresses of this page in each language (DESIGN 18a). */
  addresses: Record<Lang, string>;
  /** A schema.org object for the page's JSON-LD block. */
  jsonLd?: unknown;
}

/** Every page: lang, title, description, canonical, hreflang both ways, Open Graph. */
export function Layout(props: PageMeta & { children: Child }) {
  const { lang, title, description, addresses } = props;
  const other: Lang = lang === "en" ? "fr" : "en";
  const words = WORDS[lang];
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
      <body>
        <header>
          <a href={HOME[lang]}>{words.site}</a>
          <a href={addresses[other]} hreflang={other} lang={other}>
            {words.otherLanguage}
          </a>
        </header>
        <main>{props.children}</main>
        <footer>
          <a href={HOME[lang]}>{words.search}</a> · <a href={FRAUD_POLICY[lang]}>{words.fraudPolicy}</a>
        </footer>
      </body>
      </html>
    </>
  );
}
