import type { Capability } from "../capability";
import { consumeEmailBatch, consumeEmailDeadLetters, sweepEmailCopies } from "./copies";
import { expireApplications, purgeDeletedResumes } from "./retention";
import { emitDueDecisionNotices } from "./service";

/** Applications (DESIGN 15, 20): the emailed copies' queue, the decision notices, retention. */
export const applicationsCapability = {
  queues: { "job-posting-emails": { consume: consumeEmailBatch, deadLetters: consumeEmailDeadLetters } },
  cron: {
    shard: {
      // DESIGN 20: interviewed applicants still waiting, 7 days before their decision is due.
      decisionNotices: { name: "decisionNotices", run: async (env, now, { recorded, bounds }) => ({ rules: await emitDueDecisionNotices(env, now.getTime(), recorded, bounds) }) },
      // Before the purge, so that the résumés of applications expired now go in the same run.
      retention: { name: "retention", run: async (env, now, { bounds }) => ({ rules: await expireApplications(env, now.getTime(), bounds) }) },
      resumes: { name: "resumes", run: async (env) => ({ deleted: await purgeDeletedResumes(env) }) },
      emailCopies: { name: "emailCopies", run: async (env, now) => ({ requeued: await sweepEmailCopies(env, now.getTime()) }) },
    },
  },
} satisfies Capability;
