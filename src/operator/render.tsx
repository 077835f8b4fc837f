import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { handleError } from "../http/errors";
import { addressOf, langOf, wantsJson, type OperatorContext } from "./context";
import { OperatorPage, SHELL_WORDS } from "./shell";

// DESIGN 26: how a page of the operator's console answers — in the operator's language, in the
// console's shell — and how errors look: the one error path's status (src/http/errors.ts: logged
// there, Retry-After kept), as a page.

/** A console page, in the shell. */
export function page(c: OperatorContext, title: string, body: Child, status: ContentfulStatusCode = 200) {
  const url = new URL(c.req.url);
  return c.html(
    <OperatorPage lang={langOf(c)} title={title} address={addressOf(c)} operator={c.get("operator")} path={c.req.path} back={url.pathname + url.search}>
      {body}
    </OperatorPage>,
    status,
  );
}

/** The console's onError: the status and headers the API would answer, as a page. */
export async function operatorError(error: Error, c: OperatorContext): Promise<Response> {
  const problem = handleError(error, c);
  // Before Access let the request in, nothing of the console is shown; a command reads problem+json.
  if (!c.get("operator") || wantsJson(c)) return problem;
  const words = SHELL_WORDS[langOf(c)];
  const status = problem.status as ContentfulStatusCode;
  const [title, text] = status === 404 ? [words.notFoundTitle, words.notFound] : [words.errorTitle(status), words.errorText(status)];
  const answer = await page(c, title, <p>{text}</p>, status);
  const retryAfter = problem.headers.get("Retry-After");
  if (retryAfter) answer.headers.set("Retry-After", retryAfter);
  return answer;
}
