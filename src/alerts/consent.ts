import type { Env } from "../env";
import { sha256Hex } from "./tokens";

// DESIGN 23, 23a: the consent statement the subscribe form shows and the API's caller agrees to.
// CASL asks that consent be sought on its own, say what it is for and who asks (name, mailing
// address, contact), and that it can be withdrawn; each alert records this text's version and the
// SHA-256 of the exact text shown (settings filled in), so an operator can show what was agreed to.

/** Change the version whenever the wording changes: records keep the version they were given under. */
export const CONSENT_TEXT_VERSION = "2026-11-1";

export interface Sender {
  name: string;
  postalAddress: string;
  contact: string;
  from: string;
}

export const senderOf = (env: Pick<Env, "BOARD_NAME" | "BOARD_POSTAL_ADDRESS" | "BOARD_CONTACT" | "ALERTS_FROM">): Sender => ({
  name: env.BOARD_NAME || "Job Board",
  postalAddress: env.BOARD_POSTAL_ADDRESS || "",
  contact: env.BOARD_CONTACT || "",
  from: env.ALERTS_FROM || "alerts@jobs.example",
});

export function consentText(language: "en" | "fr", sender: Sender): string {
  return language === "fr"
    ? `J'accepte de recevoir par courriel les offres d'emploi correspondant à cette recherche, envoyées par ${sender.name} (${sender.postalAddress}; ${sender.contact}). Je peux retirer mon consentement en tout temps, par le lien de désabonnement de chaque courriel.`
    : `I agree to receive emails with the job postings that match this search, sent by ${sender.name} (${sender.postalAddress}; ${sender.contact}). I can withdraw my consent at any time, with the unsubscribe link in every email.`;
}

export async function consentRecordOf(language: "en" | "fr", sender: Sender): Promise<{ version: string; sha256: string }> {
  return { version: CONSENT_TEXT_VERSION, sha256: await sha256Hex(consentText(language, sender)) };
}
