// The emails about an application, all through the email queue (DESIGN 15, 20): the copy to
// the employer, and the emails to the applicant. Applications own them (their status is the
// application's); src/email/ only writes the messages.
import { createDatabase, type Database } from "../db/client";
import type { Env } from "../env";
import { shardDatabase, shardOf } from "../shards/bindings";
import { retryDelaySeconds } from "../events/retry-schedule";
import { findJobForCopy } from "../jobs/published";
import { composeApplicantEmail } from "../email/applicant";
import { composeCopy } from "../email/copy";
import {
  dueApplicantEmails,
  dueEmailCopies,
  findApplicantEmail,
  findApplicationById,
  recordApplicantEmailAttempt,
  recordEmailAttempt,
  type EmailAttempt,
} from "./repository";

/**
 * A message of the email queue: the employer's copy of an application, or an email to its
 * applicant, in the shard it names (DESIGN 22; absent: 0, as in messages sent before shards).
 */
export type QueuedEmail = ({ applicationId: number } | { applicantEmailId: number }) & { shard?: number };
const from = (env: Pick<Env, "EMAIL_FROM">) => env.EMAIL_FROM ?? "applications@jobs.example";

/** Hands emails recorded in `env`'s shard to the email queue. */
export async function enqueueEmails(env: Pick<Env, "EMAIL_QUEUE" | "SHARD">, ids: { copies?: number[]; applicantEmails?: (number | null)[] }): Promise<void> {
  const shard = shardOf(env);
  const bodies: QueuedEmail[] = [
    ...(ids.copies ?? []).map((applicationId) => ({ applicationId, shard })),
    // null: no email was recorded (a move that notifies nobody).
    ...(ids.applicantEmails ?? []).flatMap((applicantEmailId) => (applicantEmailId === null ? [] : [{ applicantEmailId, shard }])),
  ];
  for (let i = 0; i < bodies.length; i += 100) await env.EMAIL_QUEUE.sendBatch(bodies.slice(i, i + 100).map((body) => ({ body })));
}

type Attempt = (outcome: EmailAttempt) => Promise<void>;

/**
 * DESIGN 22: an email of an employer being moved is sent once the move is done: its outcome could
 * not be recorded now (the triggers refuse it), and an email sent but not recorded would be sent
 * again. Of one moved away, the message finds nothing here later, and the cron's sweep of the
 * shard it moved to hands the email over again.
 */
const WHILE_MOVING_DELAY_SECONDS = 30;

/**
 * One send: on success recorded sent; on failure retried by the queue on the delivery
 * contract's schedule, then failed. The application itself is stored already: nothing is lost.
 */
async function sendOnce(message: Message<QueuedEmail>, env: Env, attempts: number, record: Attempt, mail: () => Promise<Parameters<SendEmail["send"]>[0]>) {
  try {
    await env.EMAIL.send(await mail());
    await record({ status: "sent", sentAt: Date.now() });
    message.ack();
  } catch (error) {
    const delay = retryDelaySeconds(attempts + 1);
    console.error(JSON.stringify({ level: "error", message: "email not sent", body: message.body, error: String(error) }));
    if (delay === null) {
      await record({ status: "failed" });
      return message.ack();
    }
    await record({ status: "pending", nextAttemptAt: Date.now() + delay * 1000 });
    message.retry({ delaySeconds: delay });
  }
}

async function sendCopy(message: Message<QueuedEmail>, env: Env, db: Database, applicationId: number) {
  const application = await findApplicationById(db, applicationId);
  if (!application || application.emailStatus !== "pending") return message.ack();
  const record: Attempt = (outcome) => recordEmailAttempt(db, application.id, outcome);
  const job = await findJobForCopy(db, application.jobId);
  if (job?.employerLocked) return message.retry({ delaySeconds: WHILE_MOVING_DELAY_SECONDS });
  if (!job?.applicationEmail) {
    await record({ status: "failed" });
    return message.ack();
  }
  await sendOnce(message, env, application.emailAttempts, record, async () => {
    const resume = application.resumeKey ? await env.RESUMES.get(application.resumeKey) : null;
    return composeCopy(
      {
        job: { id: job.id, title: job.title },
        application,
        resume: resume ? { filename: application.resumeFilename!, contentType: application.resumeType!, content: await resume.arrayBuffer() } : null,
      },
      from(env),
      job.applicationEmail!,
    ) as never;
  });
}

async function sendToApplicant(message: Message<QueuedEmail>, env: Env, db: Database, applicantEmailId: number) {
  const found = await findApplicantEmail(db, applicantEmailId);
  if (!found || found.email.status !== "pending") return message.ack();
  const { email, application } = found;
  const record: Attempt = (outcome) => recordApplicantEmailAttempt(db, email.id, outcome);
  const job = await findJobForCopy(db, application.jobId);
  if (job?.employerLocked) return message.retry({ delaySeconds: WHILE_MOVING_DELAY_SECONDS });
  await sendOnce(message, env, email.attempts, record, async () =>
    composeApplicantEmail(
      {
        kind: email.kind,
        language: application.language,
        applicantName: application.name,
        jobTitle: job?.title ?? null,
        employerName: job?.employerName ?? null,
        withdrawLink: email.withdrawLink,
      },
      from(env),
      application.email,
    ) as never,
  );
}

/** The email queue's consumer: one send per message through the Email Service binding, each in its shard. */
export async function consumeEmailBatch(batch: MessageBatch<QueuedEmail>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map((message) => {
      const db = createDatabase(shardDatabase(env, message.body.shard ?? 0));
      return "applicantEmailId" in message.body
        ? sendToApplicant(message, env, db, message.body.applicantEmailId)
        : sendCopy(message, env, db, message.body.applicationId);
    }),
  );
}

/** For the cron, per shard: emails still pending a minute after they were due are handed over again. */
export async function sweepEmailCopies(env: Pick<Env, "DB" | "EMAIL_QUEUE" | "SHARD">, now: number): Promise<number> {
  const db = createDatabase(env.DB);
  const [copies, applicantEmails] = await Promise.all([dueEmailCopies(db, now - 60_000, 1_000), dueApplicantEmails(db, now - 60_000, 1_000)]);
  await enqueueEmails(env, { copies, applicantEmails });
  return copies.length + applicantEmails.length;
}

/**
 * DESIGN 16a: the email queue's dead letters (a message whose consumer failed past every retry
 * before it could record an attempt). Nothing is lost by acknowledging them: the email is still
 * pending in its row, and the cron's sweep (sweepEmailCopies) hands it over again.
 */
export async function consumeEmailDeadLetters(batch: MessageBatch<QueuedEmail>): Promise<void> {
  console.error(JSON.stringify({ level: "error", message: "dead letters left to the email sweep", queue: batch.queue, emails: batch.messages.map((message) => message.body) }));
  batch.ackAll();
}
