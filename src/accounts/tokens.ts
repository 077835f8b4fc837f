// DESIGN 25: the console's secrets — invitation and sign-in link tokens, session cookies — are 32
// random bytes (base64url) from the platform's CSPRNG, and only their SHA-256 (hex) is stored. No
// crypto of our own: crypto.getRandomValues and crypto.subtle, in the Worker and in Node alike
// (scripts/people.mjs makes invitations with these very functions).

export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** DESIGN 25: an invitation lasts 7 days; a sign-in link 15 minutes. */
export const INVITATION_MS = 7 * 24 * 3_600_000;
export const SIGN_IN_LINK_MS = 15 * 60_000;

export const ROLES = ["admin", "recruiter"] as const;
export type Role = (typeof ROLES)[number];

/** The address as stored and compared: trimmed, lowercased. */
export const emailKey = (email: string) => email.trim().toLowerCase();
