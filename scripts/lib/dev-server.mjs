// `wrangler dev` (the project's own, on the pinned Node) on free ports with its local state in
// `state`, for scripts that need the Worker as a client sees it (browser test, OpenAPI lint).
import { fileURLToPath } from "node:url";
import { writeDocument } from "../openapi.mjs";
import { freePort } from "./free-port.mjs";
import { APP_CONFIGS, endWithThisProcess, startWrangler } from "./wrangler.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Resolves once the Worker answers `readyPath`; `stop()` ends it, as does the end of this process
 * (Ctrl-C included); `output()` is what wrangler printed so far (the local Email binding's files).
 * `port`: where it listens (default: a free one).
 */
export async function startDevServer(state, { readyPath = "/api/v1.1/openapi.json", timeoutMs = 90_000, args = [], port: chosen } = {}) {
  await writeDocument(); // the OpenAPI document the Worker serves, from this code
  // A caller may choose it: settings that name the origin (the stand-in of Access's) are made before.
  const port = chosen ?? (await freePort());
  const inspectorPort = await freePort();
  // With --remote the main Worker runs on Cloudflare, where PASSKEYS reaches the deployed passkeys Worker.
  const configs = args.includes("--remote") ? [] : APP_CONFIGS;
  const child = startWrangler(
    [
      "dev",
      ...configs,
      "--ip", "127.0.0.1",
      "--port", String(port),
      "--inspector-port", String(inspectorPort),
      "--persist-to", state,
      "--show-interactive-dev-session=false",
      ...args,
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const stop = endWithThisProcess(child);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) stop();
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${origin}${readyPath}`);
      if (res.ok) return { origin, pid: child.pid, stop, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error(`wrangler dev did not answer within ${timeoutMs / 1000} s:\n${output}`);
}
