import type { Database } from "../db/client";
import type { Env } from "../env";
import { ConflictError } from "../http/problem";
import { isFinal } from "./pipeline";
import { findByWithdrawToken } from "./repository";
import { applyMove } from "./service";

// DESIGN 20: the applicant's withdraw link. The token is random; the application keeps its
// SHA-256 only, and the link works once, for 180 days, while the application is open.

/** The withdraw pages (DESIGN 20): `${WITHDRAW_PATH}/{token}`. */
export const WITHDRAW_PATH = "/withdraw";

/** A random token for the withdraw link (the application keeps its SHA-256 only). */
export function newWithdrawToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The withdraw link's application, while the link works and the application is open; else undefined (a 404 page). */
export async function withdrawable(db: Database, token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const application = await findByWithdrawToken(db, await tokenHash(token), Date.now());
  return application && !isFinal(application.status) ? application : undefined;
}

/** The applicant withdraws through the link: the application is withdrawn, its résumé deleted, the link used up. */
export async function withdrawByLink(env: Env, db: Database, token: string) {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const application = await withdrawable(db, token);
    if (!application) return undefined;
    const moved = await applyMove(env, db, application, {
      status: "withdrawn",
      note: "Withdrawn by the applicant through the link in the confirmation email.",
      notify: null,
    });
    if (moved) return moved;
  }
  throw new ConflictError("edit-conflict", "The application changed 20 times while it was withdrawn; try again.");
}

