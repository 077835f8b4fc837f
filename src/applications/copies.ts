// The emailed copy of each application (DESIGN 15): applications own it (its status is the
// application's); src/email/ only writes the message.
import { createDatabase } from "../db/client";
import type { Env } from "../env";
import { retryDelaySeconds } from "../events/retry-schedule";
import { findJobForCopy } from "../jobs/published";
import { composeCopy } from "../email/copy";
import { dueEmailCopies, findApplicationById, recordEmailAttempt } from "./repository";

export interface QueuedCopy {
  applicationId: number;
}

export async function enqueueCopies(env: Pick<Env, "EMAIL_QUEUE">, applicationIds: number[]): Promise<void> {
  for (let i = 0; i < applicationIds.length; i += 100) {
    await env.EMAIL_QUEUE.sendBatch(applicationIds.slice(i, i + 100).map((applicationId) => ({ body: { applicationId } })));
  }
}

/**
 * The email queue's consumer (DESIGN 15): one send per message through the Email Service
 * binding, the résumé attached; a failure is retried by the queue on the delivery contract's schedule,
 * then the copy is failed. The application itself is stored already: nothing is lost.
 */
export async function consumeEmailBatch(batch: MessageBatch<QueuedCopy>, env: Env): Promise<void> {
  const db = createDatabase(env.DB);
  await Promise.all(
    batch.messages.map(async (message) => {
      const application = await findApplicationById(db, message.body.applicationId);
      if (!application || application.emailStatus !== "pending") return message.ack();
      const job = await findJobForCopy(db, application.jobId);
      if (!job?.applicationEmail) {
        await recordEmailAttempt(db, application.id, { status: "failed" });
        return message.ack();
      }
      try {
        const resume = application.resumeKey ? await env.RESUMES.get(application.resumeKey) : null;
        const mail = composeCopy(
          {
            job: { id: job.id, title: job.title },
            application,
            resume: resume ? { filename: application.resumeFilename!, contentType: application.resumeType!, content: await resume.arrayBuffer() } : null,
          },
          env.EMAIL_FROM ?? "applications@jobs.example",
          job.applicationEmail,
        );
        await env.EMAIL.send(mail);
        await recordEmailAttempt(db, application.id, { status: "sent", sentAt: Date.now() });
        message.ack();
      } catch (error) {
        const delay = retryDelaySeconds(application.emailAttempts + 1);
        console.error(JSON.stringify({ level: "error", message: "email copy failed", applicationId: application.id, error: String(error) }));
        if (delay === null) {
          await recordEmailAttempt(db, application.id, { status: "failed" });
          return message.ack();
        }
        await recordEmailAttempt(db, application.id, { status: "pending", nextAttemptAt: Date.now() + delay * 1000 });
        message.retry({ delaySeconds: delay });
      }
    }),
  );
}

/** For the cron: copies still pending a minute after they were due are handed over again. */
export async function sweepEmailCopies(env: Pick<Env, "DB" | "EMAIL_QUEUE">, now: number): Promise<number> {
  const due = await dueEmailCopies(createDatabase(env.DB), now - 60_000, 1_000);
  await enqueueCopies(env, due);
  return due.length;
}
