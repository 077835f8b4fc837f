import type { REPORT_REASONS } from "../reports/tables";
import { formatDateTime, type Lang } from "../ui/i18n";

// DESIGN 26: words several pages of the operator's console share, in English and French.

export const COMMON_WORDS = {
  en: {
    reasons: { fraud: "Fraud", discrimination: "Discrimination", misleading: "Misleading", notAJob: "Not a job", other: "Other" } satisfies Record<(typeof REPORT_REASONS)[number], string>,
    statuses: { active: "active", draft: "draft", archived: "archived" },
    plans: { standard: "Standard", unlimited: "Unlimited" },
    untitled: "(untitled)",
    gone: "(deleted)",
  },
  fr: {
    reasons: { fraud: "Fraude", discrimination: "Discrimination", misleading: "Trompeuse", notAJob: "Pas un emploi", other: "Autre" } satisfies Record<(typeof REPORT_REASONS)[number], string>,
    statuses: { active: "active", draft: "brouillon", archived: "archivée" },
    plans: { standard: "Standard", unlimited: "Illimité" },
    untitled: "(sans titre)",
    gone: "(supprimée)",
  },
} as const;

/** A moment (ms since the epoch) as the console shows it, in the operator's language. */
export const formatMoment = (lang: Lang, ms: number) => formatDateTime(lang, new Date(ms).toISOString());
