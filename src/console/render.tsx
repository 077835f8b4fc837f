import type { Child } from "hono/jsx";
import type { MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { employerNameIn } from "../employers/service";
import { handleError } from "../http/errors";
import { addressOf, requestLang, type ConsoleContext, type ConsoleEnv } from "./context";
import { ConsolePage, SHELL_WORDS } from "./shell";

// DESIGN 25: how a console page answers — in the signed-in person's language, in the console's
// shell — and how its refusals and errors look to a person: the one error path's status and
// headers (src/http/errors.ts: logged there, Retry-After kept), with a page instead of JSON.

/** The console's language for this request: the person's setting, else the request's. */
export const langOf = (c: ConsoleContext) => c.var.person?.language ?? requestLang(c);

/** A console page, in the shell, for the signed-in person (naming their employer when their address has several: one read of its shard). */
export async function page(c: ConsoleContext, title: string, body: Child, status: ContentfulStatusCode = 200) {
  const person = c.var.person;
  const employer = person && person.employers > 1 && c.var.db ? ((await employerNameIn(c.var.db, person.employerId)) ?? `#${person.employerId}`) : undefined;
  return c.html(
    <ConsolePage lang={langOf(c)} title={title} address={addressOf(c)} person={person} path={c.req.path} employer={employer}>
      {body}
    </ConsolePage>,
    status,
  );
}

/** DESIGN 25a: the pages of the integration and of people are for admins; a recruiter gets 403. */
export const adminOnly: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  if (c.get("person").role !== "admin") {
    const words = SHELL_WORDS[langOf(c)];
    return page(c, words.adminOnlyTitle, <p>{words.adminOnly}</p>, 403);
  }
  await next();
};

/** The console's onError: the status and headers the API would answer, as a page. */
export async function consoleError(error: Error, c: ConsoleContext): Promise<Response> {
  const problem = handleError(error, c);
  const words = SHELL_WORDS[langOf(c)];
  const status = problem.status as ContentfulStatusCode;
  const [title, text] = status === 404 ? [words.notFoundTitle, words.notFound] : [words.errorTitle(status), words.errorText(status)];
  const answer = await page(c, title, <p>{text}</p>, status);
  const retryAfter = problem.headers.get("Retry-After");
  if (retryAfter) answer.headers.set("Retry-After", retryAfter);
  return answer;
}
