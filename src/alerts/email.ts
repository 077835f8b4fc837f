import { headerValue } from "../email/copy";
import { formatDate, LOCALE } from "../ui/i18n";
import { formatSalary } from "../ui/pay";
import type { Sender } from "./consent";
import type { AlertSearch, JobCard } from "./rules";

// DESIGN 23: the alerts' emails, written for the person who reads them, in the alert's language,
// HTML and plain text. Pure: the caller gives the links (with their tokens) and the sender.
// No tracking of any kind: no pixel, no redirecting link.

export type Language = "en" | "fr";

export interface AlertLinks {
  manage: string;
  unsubscribe: string;
  feed: string;
  /** The whole search on the board's search page. */
  search: string;
  /** RFC 2369's mailto form of the unsubscribe (an address routed to the Worker, the token in the subject), when inbound mail is set up. */
  unsubscribeMailto?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const WORDS = {
  en: {
    confirmSubject: (search: string) => `Confirm your job alert: ${search}`,
    confirmIntro: "Someone — we hope you — asked for emails about new job postings matching this search:",
    confirmAsk: "To start receiving them, open this link and press the button:",
    confirmIgnore: "If it was not you, ignore this email: nothing will be sent, and the request is deleted in 7 days.",
    decline: "Not you? Delete the request now:",
    alertSubject: (count: number, first: string) => (count === 1 ? `1 new job: ${first}` : `${count} new jobs: ${first} and more`),
    heading: (count: number) => (count === 1 ? "1 new job matches your alert" : `${count} new jobs match your alert`),
    confidential: "Confidential employer",
    untitled: "Untitled job",
    posted: "Posted",
    closes: "closes",
    seeAll: "See every job of this search",
    why: (search: string, date: string) => `You get this email because on ${date} you asked for job alerts for: ${search}.`,
    manage: "Change or pause your alerts",
    unsubscribe: "Unsubscribe from this alert",
    feed: "This alert as a feed",
    sender: (sender: Sender) => `Sent by ${sender.name}, ${sender.postalAddress}. Contact: ${sender.contact}.`,
    keepSubject: (search: string) => `Keep your job alert? ${search}`,
    keepBody: "A year ago you asked for this job alert. Do you still want it? Keep it with the manage link below; without an answer in 30 days it ends and no more emails are sent.",
    keep: "Keep or change this alert",
    any: "all jobs",
  },
  fr: {
    confirmSubject: (search: string) => `Confirmez votre alerte emploi : ${search}`,
    confirmIntro: "Quelqu'un — vous, nous l'espérons — a demandé des courriels sur les nouvelles offres d'emploi correspondant à cette recherche :",
    confirmAsk: "Pour commencer à les recevoir, ouvrez ce lien et appuyez sur le bouton :",
    confirmIgnore: "Si ce n'était pas vous, ignorez ce courriel : rien ne sera envoyé, et la demande sera supprimée dans 7 jours.",
    decline: "Ce n'était pas vous? Supprimez la demande dès maintenant :",
    alertSubject: (count: number, first: string) => (count === 1 ? `1 nouvelle offre : ${first}` : `${count} nouvelles offres : ${first} et plus`),
    heading: (count: number) => (count === 1 ? "1 nouvelle offre correspond à votre alerte" : `${count} nouvelles offres correspondent à votre alerte`),
    confidential: "Employeur confidentiel",
    untitled: "Offre sans titre",
    posted: "Publiée le",
    closes: "se termine le",
    seeAll: "Voir toutes les offres de cette recherche",
    why: (search: string, date: string) => `Vous recevez ce courriel parce que le ${date}, vous avez demandé des alertes emploi pour : ${search}.`,
    manage: "Modifier ou suspendre vos alertes",
    unsubscribe: "Se désabonner de cette alerte",
    feed: "Cette alerte en fil Atom",
    sender: (sender: Sender) => `Envoyé par ${sender.name}, ${sender.postalAddress}. Contact : ${sender.contact}.`,
    keepSubject: (search: string) => `Garder votre alerte emploi? ${search}`,
    keepBody: "Il y a un an, vous avez demandé cette alerte emploi. La voulez-vous toujours? Gardez-la par le lien ci-dessous; sans réponse dans 30 jours, elle prend fin et plus aucun courriel n'est envoyé.",
    keep: "Garder ou modifier cette alerte",
    any: "toutes les offres",
  },
} as const;

// Formatters are made once per isolate: each holds ICU data outside the JS heap, which the garbage
// collector hardly sees, so one made per date piled up (docs/performance.md, alerts at scale).
const dateOf = (at: string | number, language: Language) => formatDate(language, new Date(at).toISOString());

// A search's salaryMin is a whole number of dollars a year (src/alerts/schemas.ts): no cents to show.
// A job's pay is another thing: formatSalary, as the board's pages show it.
const WHOLE_DOLLARS = {
  en: new Intl.NumberFormat(LOCALE.en, { style: "currency", currency: "CAD", maximumFractionDigits: 0 }),
  fr: new Intl.NumberFormat(LOCALE.fr, { style: "currency", currency: "CAD", maximumFractionDigits: 0 }),
};
const wholeDollars = (amount: number, language: Language) => WHOLE_DOLLARS[language].format(amount);

/** The search in words, for the subject and the "why you get this" line. */
export function describeSearch(search: AlertSearch, language: Language, placeName?: string | null): string {
  const fr = language === "fr";
  const parts: string[] = [];
  if (search.q) parts.push(fr ? `« ${search.q} »` : `“${search.q}”`);
  if (search.near !== undefined) parts.push(`${fr ? "à" : "within"} ${search.radiusKm ?? 50} km ${fr ? "de" : "of"} ${placeName ?? `#${search.near}`}`);
  if (search.province) parts.push(`province ${search.province}`);
  if (search.category !== undefined) parts.push(`${fr ? "catégorie" : "category"} ${search.category}`);
  if (search.positionType !== undefined) parts.push(`${fr ? "type de poste" : "position type"} ${search.positionType}`);
  if (search.salaryMin !== undefined) parts.push(`${fr ? "salaire d'au moins" : "salary from"} ${wholeDollars(search.salaryMin, language)}/${fr ? "an" : "year"}`);
  return headerValue(parts.join(", ") || WORDS[language].any);
}

function footer(language: Language, sender: Sender, links: AlertLinks, why: string) {
  const words = WORDS[language];
  const lines = [why, `${words.manage}: ${links.manage}`, `${words.unsubscribe}: ${links.unsubscribe}`, `${words.feed}: ${links.feed}`, words.sender(sender)];
  const html = `<hr><p><small>${escapeHtml(why)}</small></p>
<p><small><a href="${escapeHtml(links.manage)}">${escapeHtml(words.manage)}</a> · <a href="${escapeHtml(links.unsubscribe)}">${escapeHtml(words.unsubscribe)}</a> · <a href="${escapeHtml(links.feed)}">${escapeHtml(words.feed)}</a></small></p>
<p><small>${escapeHtml(words.sender(sender))}</small></p>`;
  return { lines, html };
}

const page = (language: Language, title: string, body: string) =>
  `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
${body}
</body>
</html>
`;

/** The headers every alert email carries: its language, and RFC 8058 one-click unsubscribe (plus the list's id, for filters and for deliverability). */
function listHeaders(language: Language, links: AlertLinks, listId: string) {
  return {
    "Content-Language": language,
    // RFC 8058: the https address is the one-click one; a mailto: beside it serves clients that only send mail (RFC 2369).
    "List-Unsubscribe": links.unsubscribeMailto ? `<${links.unsubscribe}>, <${links.unsubscribeMailto}>` : `<${links.unsubscribe}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "List-Id": listId,
  };
}

export interface Mail {
  from: { email: string; name: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

const fromOf = (sender: Sender) => ({ email: headerValue(sender.from), name: headerValue(sender.name) });

/** The confirmation (double opt-in): the confirm link, and the "this was not me" link that deletes the request (a page with a button). */
export function confirmationEmail(input: { language: Language; to: string; search: string; confirmLink: string; declineLink: string; sender: Sender }): Mail {
  const words = WORDS[input.language];
  const text = [words.confirmIntro, "", `  ${input.search}`, "", words.confirmAsk, input.confirmLink, "", words.confirmIgnore, `${words.decline} ${input.declineLink}`, "", words.sender(input.sender)].join("\n");
  const html = page(
    input.language,
    words.confirmSubject(input.search),
    `<p>${escapeHtml(words.confirmIntro)}</p>
<p><strong>${escapeHtml(input.search)}</strong></p>
<p>${escapeHtml(words.confirmAsk)} <a href="${escapeHtml(input.confirmLink)}">${escapeHtml(input.confirmLink)}</a></p>
<p>${escapeHtml(words.confirmIgnore)}</p>
<p>${escapeHtml(words.decline)} <a href="${escapeHtml(input.declineLink)}">${escapeHtml(input.declineLink)}</a></p>
<hr><p><small>${escapeHtml(words.sender(input.sender))}</small></p>`,
  );
  return { from: fromOf(input.sender), to: headerValue(input.to), subject: headerValue(words.confirmSubject(input.search)), text, html, headers: { "Content-Language": input.language } };
}

export interface AlertEmailInput {
  language: Language;
  to: string;
  search: string;
  askedAt: number;
  jobs: JobCard[];
  jobLink: (card: JobCard) => string;
  links: AlertLinks;
  sender: Sender;
  listId: string;
}

export function alertEmail(input: AlertEmailInput): Mail {
  const { language, jobs, links } = input;
  const words = WORDS[language];
  const titleOf = (card: JobCard) => headerValue(card.title ?? "") || words.untitled;
  const why = words.why(input.search, dateOf(input.askedAt, language));
  const end = footer(language, input.sender, links, why);
  const describe = (card: JobCard) => {
    // Pay exactly as the job's page shows it (cents, the unit in words, the commission): a person
    // who follows the link reads the same figure.
    const salary = card.salary ? formatSalary(language, card.salary) : null;
    return {
      employer: card.employer ?? words.confidential,
      places: card.locations.map((location) => location.description).join("; "),
      dates: `${words.posted} ${dateOf(card.publishDate, language)}, ${words.closes} ${dateOf(card.closeDate, language)}`,
      salary,
    };
  };
  const text = [
    words.heading(jobs.length),
    "",
    ...jobs.flatMap((card) => {
      const d = describe(card);
      return [titleOf(card), `  ${d.employer} — ${d.places}`, ...(d.salary ? [`  ${d.salary}`] : []), `  ${d.dates}`, `  ${input.jobLink(card)}`, ""];
    }),
    `${words.seeAll}: ${links.search}`,
    "",
    "--",
    ...end.lines,
  ].join("\n");
  const items = jobs
    .map((card) => {
      const d = describe(card);
      return `<li><p><a href="${escapeHtml(input.jobLink(card))}"><strong>${escapeHtml(titleOf(card))}</strong></a><br>
${escapeHtml(d.employer)} — ${escapeHtml(d.places)}<br>${d.salary ? `${escapeHtml(d.salary)}<br>` : ""}<small>${escapeHtml(d.dates)}</small></p></li>`;
    })
    .join("\n");
  const subject = words.alertSubject(jobs.length, titleOf(jobs[0]));
  const html = page(
    language,
    subject,
    `<h1>${escapeHtml(words.heading(jobs.length))}</h1>
<ul>
${items}
</ul>
<p><a href="${escapeHtml(links.search)}">${escapeHtml(words.seeAll)}</a></p>
${end.html}`,
  );
  return { from: fromOf(input.sender), to: headerValue(input.to), subject: headerValue(subject), text, html, headers: listHeaders(language, links, input.listId) };
}

export function keepEmail(input: { language: Language; to: string; search: string; askedAt: number; links: AlertLinks; sender: Sender; listId: string }): Mail {
  const words = WORDS[input.language];
  const why = words.why(input.search, dateOf(input.askedAt, input.language));
  const end = footer(input.language, input.sender, input.links, why);
  const text = [words.keepBody, "", `${words.keep}: ${input.links.manage}`, "", "--", ...end.lines].join("\n");
  const html = page(
    input.language,
    words.keepSubject(input.search),
    `<p>${escapeHtml(words.keepBody)}</p>
<p><a href="${escapeHtml(input.links.manage)}">${escapeHtml(words.keep)}</a></p>
${end.html}`,
  );
  return { from: fromOf(input.sender), to: headerValue(input.to), subject: headerValue(words.keepSubject(input.search)), text, html, headers: listHeaders(input.language, input.links, input.listId) };
}
