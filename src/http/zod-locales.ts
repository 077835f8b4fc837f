// Stands in for zod's "../locales/index.js" (wrangler.toml `alias`). zod ships 64 error-message
// locales, and one module reaching zod's `z` object (`import { z } from "zod"`; src/http/zod.ts)
// keeps its whole namespace, so all of them would be bundled (~38 KiB gzip). The API speaks
// English and maps every issue to its own messages (src/http/validation.ts), so English is the
// only locale kept.
export { default as en } from "zod/v4/locales/en.js";
