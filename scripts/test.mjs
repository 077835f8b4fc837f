// `npm test`: the type-check, the layering rules (dependency-cruiser, DESIGN 16b) and the vitest
// suite side by side (the suite mostly waits on queues, relays and D1, so the checks use what it
// leaves of the CPU); arguments go to vitest. The checks' output is printed after the suite's;
// the exit code is the first failure's.
import { spawn } from "node:child_process";

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

function run(command, args, stdio) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", stdio, stdio] });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const typecheck = run(bin("tsc"), ["--noEmit"], "pipe");
const layering = run(bin("depcruise"), ["src", "workers", "--config", ".dependency-cruiser.cjs", "--output-type", "err"], "pipe");
const suite = await run(bin("vitest"), ["run", "--config", "test/vitest.config.ts", ...process.argv.slice(2)], "inherit");
const types = await typecheck;
process.stdout.write(types.output);
console.log(types.code === 0 ? "tsc --noEmit: no errors" : "tsc --noEmit: FAILED");
const layers = await layering;
process.stdout.write(layers.output);
console.log(layers.code === 0 ? "dependency-cruiser: the layering holds" : "dependency-cruiser: FAILED");
process.exit(suite.code || types.code || layers.code);
