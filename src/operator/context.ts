import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../env";
import { NotFoundError } from "../http/problem";
import type { Lang } from "../ui/i18n";

// DESIGN 26: what every page of the operator's console needs of its request — who the operator is
// (the Access token's email, src/operator/access.ts), the language, the public origin.

export type OperatorEnv = { Bindings: AppEnv["Bindings"]; Variables: AppEnv["Variables"] & { operator: string } };
export type OperatorContext = Context<OperatorEnv>;

/** The operator's language, remembered by POST /operator/language (not a secret: a plain cookie of the console's path). */
export const LANG_COOKIE = "jpa_operator_lang";

const isLang = (value: unknown): value is Lang => value === "en" || value === "fr";

/** The remembered language, else a `lang` query parameter, else Accept-Language. */
export function langOf(c: OperatorContext): Lang {
  const remembered = getCookie(c, LANG_COOKIE);
  if (isLang(remembered)) return remembered;
  const asked = c.req.query("lang");
  if (isLang(asked)) return asked;
  const first = (c.req.header("Accept-Language") ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("fr") ? "fr" : "en";
}

/**
 * DESIGN 22b: a command's request (an Access service token: no person), or one that asks for JSON
 * or sends it, is answered in JSON, its errors as problem+json; everyone else gets pages.
 */
export function wantsJson(c: OperatorContext): boolean {
  if (c.get("operator")?.startsWith("service-token:")) return true;
  if ((c.req.header("Accept") ?? "").includes("application/json")) return true;
  return c.req.method === "POST" && (c.req.header("Content-Type") ?? "").includes("application/json");
}

/** The public origin: BASE_URL, else the request's. */
export const publicOrigin = (c: OperatorContext) => c.env.BASE_URL?.replace(/\/+$/, "") || new URL(c.req.url).origin;
/** This page's absolute address (the same in both languages). */
export const addressOf = (c: OperatorContext) => `${publicOrigin(c)}${c.req.path}`;
export const isOwnOrigin = (origin: string, c: OperatorContext) => origin === new URL(c.req.url).origin || origin === publicOrigin(c);

/** A console address to come back to (a form's `back`): a path under /operator, else /operator. */
export const safeBack = (back: unknown) => (typeof back === "string" && /^\/operator(\/|\?|$)/.test(back) && !/[\\\s]/.test(back) ? back : "/operator");

/** The page's `id` (a job's, an employer's), or a 404 for anything that cannot be one. */
export function idParam(c: OperatorContext): number {
  const id = c.req.param("id") ?? "";
  if (!/^[1-9][0-9]{0,9}$/.test(id)) throw new NotFoundError();
  return Number(id);
}

const EMAIL = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;
/** An address the console accepts (trimmed first by the caller): one @, a dot in the domain, at most 254 characters. */
export const isEmailAddress = (email: string) => email.length <= 254 && EMAIL.test(email);
