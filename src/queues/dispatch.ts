import type { Env } from "../env";

// DESIGN 16a: every consumed queue has a dead-letter queue named after it with this suffix; the
// capability that owns a queue hands back what lands there. The dispatch knows no capability:
// the entry hands it the queues each one declares.

export type QueueConsumer = (batch: MessageBatch<never>, env: Env) => Promise<void>;
/** wrangler.toml's queue name → its consumer, and its dead letters' (which hand back what the first gave up on). */
export type QueueConsumers = Readonly<Record<string, { consume: QueueConsumer; deadLetters: QueueConsumer }>>;

const DEAD_LETTERS = "-dlq";

/** The Worker's `queue` handler over these queues; a batch of a queue nobody declared is an error (its messages are retried, then dead-lettered). */
export function createQueueHandler(queues: QueueConsumers) {
  return (batch: MessageBatch<unknown>, env: Env): Promise<void> => {
    const dead = batch.queue.endsWith(DEAD_LETTERS);
    const name = dead ? batch.queue.slice(0, -DEAD_LETTERS.length) : batch.queue;
    const owner = Object.hasOwn(queues, name) ? queues[name] : undefined;
    if (!owner) throw new Error(`No consumer for queue ${batch.queue}.`);
    return (dead ? owner.deadLetters : owner.consume)(batch as MessageBatch<never>, env);
  };
}
