import { headerValue } from "../email/copy";
import type { Lang } from "../ui/i18n";

// DESIGN 25a: the sign-in email — its link opens a page with a button (mail scanners follow
// links; only the button's POST signs in). Plain text and HTML, in the person's language.

const WORDS = {
  en: {
    board: "the job board",
    subject: (board: string) => `Sign in to ${board}`,
    body: "Open this link to sign in to the employer console. It works once, within 15 minutes:",
    ignore: "If you did not ask to sign in, ignore this email: nothing happens without the link.",
  },
  fr: {
    board: "le site d'emploi",
    subject: (board: string) => `Connexion à ${board}`,
    body: "Ouvrez ce lien pour vous connecter à la console employeur. Il fonctionne une fois, dans les 15 minutes :",
    ignore: "Si vous n'avez pas demandé à vous connecter, ignorez ce courriel : rien ne se passe sans le lien.",
  },
} as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function signInEmail(input: { language: Lang; to: string; link: string; from: string; board?: string }) {
  const words = WORDS[input.language];
  const subject = headerValue(words.subject(input.board || words.board));
  const text = [words.body, input.link, "", words.ignore].join("\n");
  const html = `<!DOCTYPE html><html lang="${input.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>
<p>${escapeHtml(words.body)} <a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>
<p>${escapeHtml(words.ignore)}</p></body></html>`;
  return { from: { email: headerValue(input.from), name: headerValue(input.board || words.board) }, to: headerValue(input.to), subject, text, html, headers: { "Content-Language": input.language } };
}
