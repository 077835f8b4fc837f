import type { SearchForm } from "../board/search-form";
import type { Env } from "../env";
import type { Lang } from "../ui/i18n";
import { senderOf } from "./consent";
import { AlertForm } from "./pages";
import { ALERT_FORM } from "./routes";

// DESIGN 16b, 23: what the alerts capability offers the pages of others — its one public entry for
// them. The board's search pages show, under their results, what this renders: they know neither
// the form nor where it posts, and alerts know nothing of the pages that show it.

/** The criteria a search needs one of before an alert can be asked for it (a cursor is none). */
const CRITERIA = ["q", "place", "province", "category", "positionType", "salaryMin"] as const;

/** The alert form under a search's results: the search as it stands, posting to the alerts' own address; nothing for a search without a criterion. */
export function alertFormBelowSearch(env: Pick<Env, "BOARD_NAME" | "BOARD_POSTAL_ADDRESS" | "BOARD_CONTACT" | "ALERTS_FROM">, lang: Lang, form: SearchForm) {
  if (!CRITERIA.some((name) => form[name])) return null;
  const { q, place, radiusKm, province, category, positionType, salaryMin } = form;
  return <AlertForm lang={lang} action={ALERT_FORM[lang]} sender={senderOf(env)} search={{ q, place, radiusKm, province, category, positionType, salaryMin }} />;
}
