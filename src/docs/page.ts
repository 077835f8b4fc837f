import type { Context } from "hono";
import { OPENAPI_PATH } from "../http/openapi";

export const DOCS_PATH = "/docs";
// Copied from node_modules into the static assets (src/static/) by scripts/copy-docs-assets.mjs.
const SCALAR_SCRIPT = "/docs/scalar/standalone.js";

// Everything the page needs comes from this deployment: no web fonts, no telemetry, no
// request proxy, no hosted AI agent or MCP features, no developer toolbar.
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  persistAuth: false,
  defaultOpenAllTags: true,
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  metaData: { title: "Job Posting API reference" },
};

const escapeAttribute = (value: string) => value.replaceAll("&", "&amp;").replaceAll('"', "&quot;");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Job Posting API reference</title>
</head>
<body>
<script id="api-reference" data-url="${OPENAPI_PATH}" data-configuration="${escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
<script src="${SCALAR_SCRIPT}"></script>
</body>
</html>
`;

// The browser enforces "same origin only" too. Scalar injects its styles inline.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** GET /docs: the API reference page (Scalar), public, rendered from /api/v1.1/openapi.json. */
export function docsPage(c: Context) {
  c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  c.header("Cache-Control", "public, max-age=300");
  return c.html(PAGE);
}
