import type { Lang } from "../../../ui/i18n";
import { EDITOR_SCRIPT_PATH } from "./asset";

// DESIGN 25: the description editor's script element. The script itself is a static asset
// (scripts/editor-script.mjs), never part of the Worker; its words ride on this element's data-*
// attributes, in the person's language.

const EDITOR_WORDS = {
  en: {
    toolbar: "Formatting:",
    bold: "Bold",
    italic: "Italic",
    bulletList: "Bulleted list",
    orderedList: "Numbered list",
    link: "Link",
    linkPrompt: "Address of the link (https://, http:// or mailto:)",
    linkInvalid: "Only an address starting with https://, http:// or mailto: can be a link.",
    hint: "Kept: bold, italic, bulleted and numbered lists, and links (https://, http:// or mailto:); anything else pasted here is left out.",
  },
  fr: {
    toolbar: "Mise en forme :",
    bold: "Gras",
    italic: "Italique",
    bulletList: "Liste à puces",
    orderedList: "Liste numérotée",
    link: "Lien",
    linkPrompt: "Adresse du lien (https://, http:// ou mailto:)",
    linkInvalid: "Seule une adresse commençant par https://, http:// ou mailto: peut être un lien.",
    hint: "Sont gardés : le gras, l'italique, les listes à puces et numérotées, et les liens (https://, http:// ou mailto:); tout autre élément collé ici est laissé de côté.",
  },
};

/** The console pages that may show the job form (its GETs, and its POSTs' answers when not saved): their CSP lets the console's own scripts run. */
export const loadsEditorScript = (path: string) => /^\/employer\/jobs(\/new|\/\d+)?$/.test(path);

/** Turns each `textarea[data-rich-text]` of the form into the editor; once per page. */
export function EditorScript(props: { lang: Lang }) {
  const words = EDITOR_WORDS[props.lang];
  return (
    <script
      src={EDITOR_SCRIPT_PATH}
      defer
      data-toolbar={words.toolbar}
      data-bold={words.bold}
      data-italic={words.italic}
      data-bullet-list={words.bulletList}
      data-ordered-list={words.orderedList}
      data-link={words.link}
      data-link-prompt={words.linkPrompt}
      data-link-invalid={words.linkInvalid}
      data-hint={words.hint}
    ></script>
  );
}
