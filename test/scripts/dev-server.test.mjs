import { spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Issue 34.6: a script that starts its own `wrangler dev` puts it in a process group of its
// own, which receives no Ctrl-C or SIGTERM meant for the script: the script must end it.

const FIXTURE = fileURLToPath(new URL("./fixtures/serve-until-stopped.mjs", import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const answers = (origin) => fetch(`${origin}/api/v1.1/openapi.json`).then((res) => res.ok, () => false);
const alive = (pid) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function startScript() {
  const script = spawn(process.execPath, [FIXTURE], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  script.stdout.on("data", (chunk) => (out += chunk));
  const deadline = Date.now() + 90_000;
  while (!out.includes("\n")) {
    if (script.exitCode !== null || Date.now() > deadline) throw new Error(`the script did not start its server: ${out}`);
    await sleep(100);
  }
  return { script, ...JSON.parse(out) };
}

describe("a script stopped while its dev server runs ends that server (issue 34.6)", () => {
  for (const [signal, exitCode] of [["SIGTERM", 143], ["SIGINT", 130]]) {
    it(`on ${signal} the script exits ${exitCode} and its wrangler dev, with the workerd it started, is gone: the port no longer answers`, async () => {
      const { script, origin, serverPid, state } = await startScript();
      try {
        expect(await answers(origin)).toBe(true);
        const exited = once(script, "exit");
        script.kill(signal);
        const [code, killedBy] = await exited;
        let gone = false;
        for (const deadline = Date.now() + 20_000; !gone && Date.now() < deadline; await sleep(200)) gone = !alive(serverPid);
        expect(gone).toBe(true);
        expect(await answers(origin)).toBe(false);
        // It ended as the signal would have ended it (128 + the signal's number), having stopped its server.
        expect({ code, killedBy }).toEqual({ code: exitCode, killedBy: null });
      } finally {
        if (alive(serverPid)) process.kill(-serverPid, "SIGKILL");
        rmSync(state, { recursive: true, force: true });
      }
    });
  }
});
