import { headerValue } from "../email/copy";
import { formatDate, type Lang } from "../ui/i18n";
import type { ModerationReason } from "./schemas";

// DESIGN 26: the email an employer's admins get when the operator removes one of its jobs: which
// job, why, what it means, and how to answer — in each admin's console language, text and HTML.

const WORDS = {
  en: {
    board: "the job board",
    subject: (title: string) => `Your job posting was removed: ${title}`,
    untitled: "a job posting without a title",
    removed: (board: string, title: string, id: number, date: string, why: string) =>
      `The team of ${board} removed your job posting "${title}" (job ${id}) from the board on ${date}, because ${why}.`,
    means:
      "It is archived and job seekers no longer see it. You can still change it in the employer console or through the API, but you cannot publish it again unless we restore it.",
    answer: (contact: string, id: number) => `To ask for a review, reply to this email or write to ${contact}, naming job ${id} and what you changed.`,
    answerNoContact: (id: number) => `To ask for a review, reply to this email, naming job ${id} and what you changed.`,
    reasons: {
      fraud: "it appears to be fraudulent (a scam or a fake offer)",
      discrimination: "it discriminates against applicants",
      misleading: "it is misleading about the job, its pay or its employer",
      "not-a-job": "it is not a job offer",
      other: "it breaks the board's rules",
    },
  },
  fr: {
    board: "le site d'emploi",
    subject: (title: string) => `Votre offre d'emploi a été retirée : ${title}`,
    untitled: "une offre d'emploi sans titre",
    removed: (board: string, title: string, id: number, date: string, why: string) =>
      `L'équipe de ${board} a retiré votre offre d'emploi « ${title} » (offre ${id}) du site le ${date}, parce qu'${why}.`,
    means:
      "Elle est archivée et les chercheurs d'emploi ne la voient plus. Vous pouvez encore la modifier dans la console employeur ou par l'API, mais vous ne pouvez pas la publier de nouveau à moins que nous la rétablissions.",
    answer: (contact: string, id: number) => `Pour demander un réexamen, répondez à ce courriel ou écrivez à ${contact} en indiquant l'offre ${id} et ce que vous avez modifié.`,
    answerNoContact: (id: number) => `Pour demander un réexamen, répondez à ce courriel en indiquant l'offre ${id} et ce que vous avez modifié.`,
    reasons: {
      fraud: "elle semble frauduleuse (une arnaque ou une fausse offre)",
      discrimination: "elle est discriminatoire envers les candidats",
      misleading: "elle est trompeuse quant à l'emploi, à sa rémunération ou à l'employeur",
      "not-a-job": "elle n'est pas une offre d'emploi",
      other: "elle enfreint les règles du site",
    },
  },
} as const satisfies Record<Lang, { reasons: Record<ModerationReason, string> } & Record<string, unknown>>;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export interface RemovalNotice {
  language: Lang;
  to: string;
  from: string;
  job: { id: number; title: string | null };
  reason: ModerationReason;
  /** When it was removed (ISO 8601). */
  at: string;
  board?: string;
  /** Where to answer besides replying (BOARD_CONTACT): an address becomes the Reply-To. */
  contact?: string;
}

export function removalEmail(notice: RemovalNotice) {
  const words = WORDS[notice.language];
  const board = notice.board || words.board;
  const title = headerValue(notice.job.title ?? "") || words.untitled;
  const subject = headerValue(words.subject(title));
  const paragraphs = [
    words.removed(board, title, notice.job.id, formatDate(notice.language, notice.at), words.reasons[notice.reason]),
    words.means,
    notice.contact ? words.answer(notice.contact, notice.job.id) : words.answerNoContact(notice.job.id),
  ];
  const html = `<!DOCTYPE html><html lang="${notice.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}</body></html>`;
  const replyTo = notice.contact?.includes("@") ? { replyTo: headerValue(notice.contact) } : {};
  return {
    from: { email: headerValue(notice.from), name: headerValue(board) },
    to: headerValue(notice.to),
    ...replyTo,
    subject,
    text: paragraphs.join("\n\n"),
    html,
    headers: { "Content-Language": notice.language },
  };
}
