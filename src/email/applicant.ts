import { headerValue } from "./copy";

// DESIGN 20: the emails to an applicant — the confirmation of an application (with the withdraw
// link) and the employer's decision when it asks — in the language of the page the applicant
// used, as plain text and HTML. Everything the applicant or employer wrote is escaped in the
// HTML and kept to one line in headers.

export type ApplicantEmailKind = "confirmation" | "rejected" | "hired";
export type Language = "en" | "fr";

export interface ApplicantEmail {
  kind: ApplicantEmailKind;
  language: Language;
  applicantName: string;
  jobTitle: string | null;
  /** null when the job is confidential. */
  employerName: string | null;
  /** The confirmation's link to withdraw the application. */
  withdrawLink?: string | null;
}

const WORDS = {
  en: {
    confidential: "Confidential employer",
    untitled: "a job",
    subject: {
      confirmation: (job: string) => `Application received: ${job}`,
      rejected: (job: string) => `Your application for ${job}`,
      hired: (job: string) => `Good news about your application for ${job}`,
    },
    hello: (name: string) => `Hello ${name},`,
    body: {
      confirmation: (job: string, employer: string) => [`We received your application for "${job}" at ${employer}.`, "The employer will contact you if your profile fits."],
      rejected: (job: string, employer: string) => [`${employer} has decided not to go further with your application for "${job}".`, "Thank you for your interest, and good luck in your search."],
      hired: (job: string, employer: string) => [`${employer} has decided to hire you for "${job}". Congratulations!`, "The employer will contact you about the next steps."],
    },
    withdraw: "If you no longer want to be considered, withdraw your application (your résumé is then deleted):",
    footer: "This message was sent by the job board on behalf of the employer.",
  },
  fr: {
    confidential: "Employeur confidentiel",
    untitled: "un poste",
    subject: {
      confirmation: (job: string) => `Candidature reçue : ${job}`,
      rejected: (job: string) => `Votre candidature pour ${job}`,
      hired: (job: string) => `Bonne nouvelle au sujet de votre candidature pour ${job}`,
    },
    hello: (name: string) => `Bonjour ${name},`,
    body: {
      confirmation: (job: string, employer: string) => [`Nous avons reçu votre candidature pour « ${job} » chez ${employer}.`, "L'employeur communiquera avec vous si votre profil correspond."],
      rejected: (job: string, employer: string) => [`${employer} a décidé de ne pas donner suite à votre candidature pour « ${job} ».`, "Merci de votre intérêt, et bonne chance dans vos recherches."],
      hired: (job: string, employer: string) => [`${employer} a décidé de vous embaucher pour « ${job} ». Félicitations!`, "L'employeur communiquera avec vous pour la suite."],
    },
    withdraw: "Si vous ne souhaitez plus être considéré, retirez votre candidature (votre CV est alors supprimé) :",
    footer: "Ce message est envoyé par le site d'emploi au nom de l'employeur.",
  },
} as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function composeApplicantEmail(email: ApplicantEmail, from: string, to: string) {
  const words = WORDS[email.language];
  const job = headerValue(email.jobTitle ?? "") || words.untitled;
  const employer = headerValue(email.employerName ?? "") || words.confidential;
  const name = headerValue(email.applicantName);
  const paragraphs = [words.hello(name), ...words.body[email.kind](job, employer)];
  const link = email.kind === "confirmation" && email.withdrawLink ? email.withdrawLink : null;
  const text = [...paragraphs, ...(link ? [words.withdraw, link] : []), "", words.footer].join("\n\n");
  const html = [
    `<!doctype html><html lang="${email.language}"><body>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p>${escapeHtml(words.withdraw)} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`] : []),
    `<p><small>${escapeHtml(words.footer)}</small></p>`,
    "</body></html>",
  ].join("");
  return { from: headerValue(from), to: headerValue(to), subject: headerValue(words.subject[email.kind](job)), text, html };
}
