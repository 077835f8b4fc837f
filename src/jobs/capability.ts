import type { Capability } from "../capability";
import { runScheduledJobs } from "./scheduled-rules";
import { mergeSearchIndex } from "./search-index";

/** Jobs (DESIGN 4, 8): the hourly rules (auto-refresh, expiry …), and the list's search index merged last. */
export const jobsCapability = {
  cron: {
    shard: {
      rules: { name: "rules", run: async (env, now, { recorded, bounds }) => ({ rules: await runScheduledJobs(env, now, recorded, bounds) }) },
      // Last: the entries the rules moved, merged a bounded statement at a time within its own
      // budget (src/jobs/search-index.ts); what a run leaves, the next goes on with.
      searchMerge: { name: "searchMerge", run: async (env) => ({ ...(await mergeSearchIndex(env)) }) },
    },
  },
} satisfies Capability;
