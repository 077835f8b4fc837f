import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

// DESIGN 16a: a message that exhausts its retries is never dropped, in any environment.
const config = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));
const consumersOf = (env) => unstable_readConfig({ config, env }, { hideWarnings: true }).queues.consumers ?? [];

describe("queue consumers (wrangler.toml)", () => {
  for (const env of [undefined, "dev", "load"]) {
    it(`${env ?? "top level"}: every consumer names a dead-letter queue that is itself consumed, so no message is dropped after its retries`, () => {
      const consumers = consumersOf(env);
      const consumed = new Set(consumers.map((consumer) => consumer.queue));
      expect(consumers.length).toBeGreaterThan(0);
      for (const consumer of consumers) {
        expect(consumer.dead_letter_queue, consumer.queue).toBeTruthy();
        expect(consumed.has(consumer.dead_letter_queue), `${consumer.queue} → ${consumer.dead_letter_queue}`).toBe(true);
      }
    });
  }
});
