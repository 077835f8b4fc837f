import * as z from "../http/zod";
import { signedAssertion } from "./jwt";
import type { NoticeType } from "./rules";
import { CALL_TIMEOUT_MS, postJson, type CallOutcome } from "./post";
import type { GoogleSettings } from "./settings";

// DESIGN 24a: Google's Indexing API. An access token comes from the token endpoint by the
// JWT-bearer grant; each address is one POST of `{ url, type }` with it.

export interface AccessToken {
  token: string;
  /** When Google says it expires (ms). */
  expiresAt: number;
  /** The account it was issued to: a new account in the settings needs a new token. */
  account: string;
}

/** The token endpoint's answer, as far as reach reads it. */
const TokenAnswerSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });

/** The token endpoint refused or failed: `status` as answered (0: no answer). */
export class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: string | null,
    detail: string,
  ) {
    super(detail);
  }
}

/** A new access token for the account (the JWT-bearer grant). */
export async function requestToken(settings: GoogleSettings, nowMs: number): Promise<AccessToken> {
  const assertion = await signedAssertion(settings.account, settings.tokenEndpoint, nowMs);
  let res: Response;
  try {
    res = await fetch(settings.tokenEndpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    throw new TokenError(0, null, `token endpoint unreachable: ${String(error)}`);
  }
  const text = await res.text();
  if (!res.ok) throw new TokenError(res.status, res.headers.get("Retry-After"), `token endpoint answered ${res.status}: ${text.slice(0, 200)}`);
  let answer: z.infer<typeof TokenAnswerSchema>;
  try {
    answer = TokenAnswerSchema.parse(JSON.parse(text));
  } catch {
    // A 200 without a token is the endpoint's failure, not the notice's: tried again.
    throw new TokenError(502, null, "token endpoint's answer has no access_token");
  }
  return { token: answer.access_token, expiresAt: nowMs + answer.expires_in * 1000, account: settings.account.client_email };
}

/** A token is reused until a minute before it expires (DESIGN 24a). */
export const TOKEN_MARGIN_MS = 60_000;
export const isFresh = (token: AccessToken | null, settings: GoogleSettings, nowMs: number): token is AccessToken =>
  token !== null && token.account === settings.account.client_email && token.expiresAt - TOKEN_MARGIN_MS > nowMs;

/** One address's notice; the answer's status (0: none) and Retry-After. */
export function publish(settings: GoogleSettings, token: string, url: string, type: NoticeType): Promise<CallOutcome> {
  return postJson(settings.endpoint, { Authorization: `Bearer ${token}` }, { url, type });
}
