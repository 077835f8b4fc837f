// Stands in for zod's "../locales/index.js" (wrangler.toml `alias`). zod ships 64 error-message
// locales and @hono/zod-openapi's extendZodWithOpenApi(z) keeps its whole namespace, so all of
// them would be bundled (~38 KiB gzip). The API speaks English and maps every issue to its own
// messages (src/http/validation.ts), so English is the only locale kept.
export { default as en } from "zod/v4/locales/en.js";
