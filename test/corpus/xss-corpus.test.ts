import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cleanDescription } from "../../src/description/clean";
import { htmlViolations } from "../support/html-invariants";

// Every corpus string, cleaned: allowed elements and attributes only, http/https/mailto hrefs,
// no comments, every tag written explicitly (parse5, fragment in a <div>); cleaning again
// changes nothing. Run with `npm run test:xss-corpus` (see test/corpus/vitest.config.ts).

async function expectCleanAndStable(input: string): Promise<void> {
  const output = await cleanDescription(input);
  expect(htmlViolations(output), output).toEqual([]);
  expect(await cleanDescription(output)).toBe(output);
}

const label = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
const numbered = (strings: string[]) => strings.map((s, i) => [i + 1, label(s), s] as const);

describe("XSS corpus: vectors.json", () => {
  it.each(numbered(env.XSS_VECTORS))("vector %i %s cleans to allowed markup and is stable", async (_n, _label, input) => {
    await expectCleanAndStable(input);
  });
});

describe("XSS corpus: benign.json", () => {
  it.each(numbered(env.XSS_BENIGN))("benign %i %s cleans to allowed markup and is stable", async (_n, _label, input) => {
    await expectCleanAndStable(input);
  });
});
