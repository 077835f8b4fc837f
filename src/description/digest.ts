// Issue 27, DESIGN 13a: a description sent again as it was is not cleaned again. A stored job
// keeps, next to each cleaned description, the digest of the raw input it was cleaned from; the
// cleaner's version is part of the digest, so a change to the allow-list makes every one stale.
// bench/lib/seed.mjs computes the same digest for the jobs it seeds.
export const CLEANER_VERSION = 1;

/** SHA-256 (hex) of the cleaner's version and the description as the client sent it. */
export async function inputDigest(raw: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${CLEANER_VERSION}\n${raw}`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
