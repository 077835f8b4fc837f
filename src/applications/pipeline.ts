// DESIGN 20 and 20a: an application's statuses and the Ontario 45-day decision notice. Pure.

/** received → reviewing → interviewing → offered → hired; rejected or withdrawn from any non-final one. */
export const APPLICATION_STATUSES = ["received", "reviewing", "interviewing", "offered", "hired", "rejected", "withdrawn"] as const;

export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export const FINAL_STATUSES: readonly ApplicationStatus[] = ["hired", "rejected", "withdrawn"];
export const isFinal = (status: ApplicationStatus) => FINAL_STATUSES.includes(status);

const DAY_MS = 24 * 60 * 60 * 1000;
/** Ontario: an interviewed applicant hears of the decision within 45 days of the last interview. */
export const DECISION_DAYS = 45;
/** The cron's notice comes this many days before the decision is due. */
export const DECISION_NOTICE_DAYS = 7;
/** The withdraw link works for this long. */
export const WITHDRAW_LINK_DAYS = 180;
export const WITHDRAW_LINK_MS = WITHDRAW_LINK_DAYS * DAY_MS;

/**
 * 20a: any move between non-final statuses is allowed (forward, back, skipping, or the same one
 * again); a move out of a final status is not: the reason, for a 409.
 */
export function refusedMove(from: ApplicationStatus, to: ApplicationStatus): string | null {
  if (!isFinal(from)) return null;
  return `The application is ${from}, a final status: it cannot move to ${to}.`;
}

/** What a move changes beyond the status: the interview time, and when the cron's notice is due. */
export function moveEffects(current: { interviewedAt: number | null }, to: ApplicationStatus, at: number) {
  const interviewedAt = to === "interviewing" ? at : current.interviewedAt;
  return { interviewedAt, decisionNoticeAt: noticeAt(to, interviewedAt) };
}

/** When `application.decision_due` is emitted: 7 days before the decision is due, while not final. */
export function noticeAt(status: ApplicationStatus, interviewedAt: number | null): number | null {
  if (isFinal(status) || interviewedAt === null) return null;
  return interviewedAt + (DECISION_DAYS - DECISION_NOTICE_DAYS) * DAY_MS;
}

/** The last interview + 45 days, while the application is not final. */
export function decisionDueAt(status: ApplicationStatus, interviewedAt: number | null): number | null {
  return isFinal(status) || interviewedAt === null ? null : interviewedAt + DECISION_DAYS * DAY_MS;
}

/** The employer's move may email the applicant only about these outcomes. */
export const NOTIFIABLE: readonly ApplicationStatus[] = ["rejected", "hired"];
