import { headerValue } from "../email/copy";
import type { Lang } from "../ui/i18n";
import type { Role } from "./tokens";

// DESIGN 25a: the console's emails — a sign-in link (its link opens a page with a button: mail
// scanners follow links; only the button's POST signs in) and an invitation, which names the
// employer and who invited. Plain text and HTML, in one language.

const WORDS = {
  en: {
    board: "the job board",
    team: (board: string) => `The team of ${board}`,
    subject: (board: string) => `Sign in to ${board}`,
    body: "Open this link to sign in to the employer console. It works once, within 15 minutes:",
    ignore: "If you did not ask to sign in, ignore this email: nothing happens without the link.",
    inviteSubject: (employer: string) => `You are invited to ${employer}'s employer console`,
    inviteBody: (inviter: string, employer: string, role: Role) =>
      `${inviter} invites you to ${employer}'s employer console as ${role === "admin" ? "an administrator" : "a recruiter"}. Open this link to accept. It works once, within 7 days:`,
    inviteIgnore: "If you do not know this person or this employer, ignore this email: nothing happens without the link.",
  },
  fr: {
    board: "le site d'emploi",
    team: (board: string) => `L'équipe de ${board}`,
    subject: (board: string) => `Connexion à ${board}`,
    body: "Ouvrez ce lien pour vous connecter à la console employeur. Il fonctionne une fois, dans les 15 minutes :",
    ignore: "Si vous n'avez pas demandé à vous connecter, ignorez ce courriel : rien ne se passe sans le lien.",
    inviteSubject: (employer: string) => `Invitation à la console employeur de ${employer}`,
    inviteBody: (inviter: string, employer: string, role: Role) =>
      `${inviter} vous invite à la console employeur de ${employer} à titre ${role === "admin" ? "d'administrateur" : "de recruteur"}. Ouvrez ce lien pour accepter. Il fonctionne une fois, dans les 7 jours :`,
    inviteIgnore: "Si vous ne connaissez ni cette personne ni cet employeur, ignorez ce courriel : rien ne se passe sans le lien.",
  },
} as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** One email of the console: what the link does, the link, what to do if it was not expected. */
function consoleEmail(input: { language: Lang; to: string; from: string; board?: string; subject: string; body: string; link: string; ignore: string }) {
  const subject = headerValue(input.subject);
  const text = [input.body, input.link, "", input.ignore].join("\n");
  const html = `<!DOCTYPE html><html lang="${input.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>
<p>${escapeHtml(input.body)} <a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>
<p>${escapeHtml(input.ignore)}</p></body></html>`;
  const sender = input.board || WORDS[input.language].board;
  return { from: { email: headerValue(input.from), name: headerValue(sender) }, to: headerValue(input.to), subject, text, html, headers: { "Content-Language": input.language } };
}

export function signInEmail(input: { language: Lang; to: string; link: string; from: string; board?: string }) {
  const words = WORDS[input.language];
  return consoleEmail({ ...input, subject: words.subject(input.board || words.board), body: words.body, ignore: words.ignore });
}

/** `inviter`: the admin who invited; absent, the board's team (an operator's invitation, DESIGN 26). */
export function invitationEmail(input: { language: Lang; to: string; link: string; from: string; board?: string; employer: string; inviter?: string; role: Role }) {
  const words = WORDS[input.language];
  const inviter = input.inviter ?? words.team(input.board || words.board);
  return consoleEmail({ ...input, subject: words.inviteSubject(input.employer), body: words.inviteBody(inviter, input.employer, input.role), ignore: words.inviteIgnore });
}
