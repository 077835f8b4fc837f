import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_FILE, passkeysModule } from "../../scripts/passkeys-script.mjs";

// DESIGN 25: the console's passkey script is served from a committed module
// (src/console/passkeys/browser-script.ts); it must be what its sources make.
describe("the passkey script", () => {
  it("is what @simplewebauthn/browser's bundle and src/console/passkeys/client.js make (else: npm run passkeys:script)", () => {
    expect(readFileSync(GENERATED_FILE, "utf8")).toBe(passkeysModule());
  });
});
