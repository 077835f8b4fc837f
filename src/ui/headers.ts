import type { Context } from "hono";

// DESIGN 16b, 18: the security headers of every page a person sees. Pages carry no script of their
// own: the JSON-LD block is data, not run. `connect-src 'self'` lets a crawler's tools read
// robots.txt from the page (Lighthouse does); no page script connects.

interface PageHeaderOptions {
  /** The one origin whose script and frame a page may load (Turnstile's, on a form that asks for it). */
  scriptsFrom?: string;
  /** The script sources of a page that runs the site's own files (`'self'`: the console's passkey script). */
  scripts?: string[];
  /** The page loads the site's stylesheet and icon (every page of the shell does); false for a bare page. */
  assets?: boolean;
  /**
   * The page's address holds a token, or the page answers a person's form: never cached, never
   * indexed, and the address never leaves in a Referer.
   */
  private?: boolean;
  /**
   * A private page whose forms' POSTs must carry its Origin (the consoles check it): `same-origin`
   * instead of `no-referrer`, under which browsers send `Origin: null` on a form's POST. The
   * address still never leaves for another origin.
   */
  checkedPosts?: boolean;
}

export function contentSecurityPolicy({ scriptsFrom, scripts = [], assets = true }: Pick<PageHeaderOptions, "scriptsFrom" | "scripts" | "assets"> = {}): string {
  const origin = scriptsFrom ? ` ${scriptsFrom}` : "";
  const loads = assets ? `style-src 'self'; img-src 'self'; connect-src 'self'${origin}; ` : "";
  const scriptSources = [...scripts, ...(scriptsFrom ? [scriptsFrom] : [])];
  return (
    `default-src 'none'; ${loads}form-action 'self'; frame-ancestors 'none'; base-uri 'none'` +
    (scriptSources.length ? `; script-src ${scriptSources.join(" ")}` : "") +
    (origin ? `; frame-src${origin}` : "")
  );
}

/** A page's headers, as a record: its Content-Security-Policy (no inline script, never framed), its Referrer-Policy. */
export function pageHeaders(options: PageHeaderOptions = {}): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "Referrer-Policy": options.checkedPosts ? "same-origin" : options.private ? "no-referrer" : "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    ...(options.private && { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" }),
  };
}

/** A page's headers (pageHeaders), set on the answer being made. */
export function withPageHeaders(c: Context, options: PageHeaderOptions = {}): void {
  for (const [name, value] of Object.entries(pageHeaders(options))) c.header(name, value);
}
