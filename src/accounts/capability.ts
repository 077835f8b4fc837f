import type { Capability } from "../capability";
import { runAuditRetention } from "./audit";

/** The accounts (DESIGN 25, 26): not sharded, their own database; once a run, the operator's audit past 7 years is deleted. */
export const accountsCapability = {
  cron: { once: { name: "accounts", run: runAuditRetention } },
} satisfies Capability;
