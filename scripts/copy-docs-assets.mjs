// Copies the Scalar API reference bundle from node_modules into the Worker's static assets
// (src/static/, gitignored), so /docs is served by the deployment itself: no CDN, works
// offline. Runs on every `npm install` / `npm ci` (postinstall); safe to run again.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const scalar = `${root}node_modules/@scalar/api-reference/`;
const target = `${root}src/static/docs/scalar/`;

rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
copyFileSync(`${scalar}dist/browser/standalone.js`, `${target}standalone.js`);
const { version } = JSON.parse(readFileSync(`${scalar}package.json`, "utf8"));
console.log(`docs assets: @scalar/api-reference ${version} → src/static/docs/scalar/standalone.js`);
