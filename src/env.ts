import type { Database } from "./db/client";

export interface Env {
  /**
   * The employer side's database: jobs, employers, events, webhooks, applications. Shard 0 of the
   * Worker's own bindings; in the bindings of one shard (src/shards/bindings.ts atShard), that shard's.
   */
  DB: D1Database;
  /** DESIGN 22: shards 1 … N-1 of the employer side, bound as DB_1, DB_2 … */
  [shard: `DB_${number}`]: D1Database | undefined;
  /** DESIGN 22: the relays, one Durable Object per shard (named `shard:k`), that hand its events over. */
  RELAY: DurableObjectNamespace<Relay>;
  /** Set in the bindings of one shard (atShard): which shard DB is. Absent: 0. */
  SHARD?: number;
  /** The board's own database (DESIGN 17): a projection of the jobs; only board reads and its feed touch it. */
  BOARD_DB: D1Database;
  /** Job events for the board's consumer (DESIGN 17); the same Worker consumes them. */
  BOARD_QUEUE: Queue;
  /** DESIGN 23: job alerts' own database (saved searches, consent records, matches, the send ledger); only src/alerts touches it. */
  ALERTS_DB: D1Database;
  /** DESIGN 23: job events for the alerts' matching, and the alert emails to send (src/alerts/consumer.ts); the same Worker consumes it. */
  ALERTS_QUEUE: Queue;
  /** DESIGN 23a: the sender address of alert emails (apart from EMAIL_FROM). */
  ALERTS_FROM?: string;
  /** Base64 of 32 bytes: derives job alerts' link tokens, which are stored only as hashes (a Worker secret). */
  ALERTS_TOKEN_KEY?: string;
  /**
   * DESIGN 23: an address whose inbound mail Email Routing sends to this Worker (its `email`
   * handler); set, every alert email's List-Unsubscribe also carries `mailto:` it. Empty: https only.
   */
  ALERTS_UNSUBSCRIBE_MAILTO?: string;
  /** DESIGN 23a: who sends alert emails, named in each (CASL s. 6): the board's name, its mailing address, a contact. */
  BOARD_NAME?: string;
  BOARD_POSTAL_ADDRESS?: string;
  BOARD_CONTACT?: string;
  /** Views of board jobs and their pages, counted on their way to D1 (DESIGN 21). */
  VIEWS_QUEUE: Queue<{ jobId: number; day: number; views: number }[]>;
  API_KEYS: KVNamespace;
  /** Job requests per employer (wrangler.toml `[[ratelimits]]`). */
  JOB_RATE_LIMITER: RateLimit;
  /** Public board requests per client address (DESIGN 14). */
  BOARD_RATE_LIMITER: RateLimit;
  /** Applications per client address, refused ones included (DESIGN 15). */
  APPLY_RATE_LIMITER: RateLimit;
  /** Résumés, under random keys (DESIGN 15). */
  RESUMES: R2Bucket;
  /** The Email Service binding that sends the copy of each application. */
  EMAIL: SendEmail;
  /** DESIGN 15, 20: the emails about applications (src/applications/copies.ts); the same Worker consumes them. */
  EMAIL_QUEUE: Queue<{ applicationId: number } | { applicantEmailId: number }>;
  /** The sender of application copies (an address of a domain set up for Email Routing). */
  EMAIL_FROM?: string;
  /** When set, applications need a valid Cloudflare Turnstile token. */
  TURNSTILE_SECRET?: string;
  /** DESIGN 18: Turnstile's site key: when set, the apply form on job pages shows the widget. */
  TURNSTILE_SITE_KEY?: string;
  /** Failed authentications per client address. */
  AUTH_FAILURE_RATE_LIMITER: RateLimit;
  /** The JOB_RATE_LIMITER's limit per 60 s, as wrangler.toml sets it: told to clients in RateLimit-Policy. */
  JOB_RATE_LIMIT?: string;
  /** Events to fan out and webhook messages to deliver (DESIGN 13); the same Worker consumes them. */
  WEBHOOK_QUEUE: Queue;
  /** Base64 of 32 bytes: encrypts webhook signing secrets at rest (a Worker secret). */
  WEBHOOK_ENCRYPTION_KEY?: string;
  /** "true" in local development only: webhooks may then go to http:// and loopback. */
  WEBHOOKS_ALLOW_INSECURE?: string;
  /** Public origin used in Location headers and paging links; empty = the request's origin. */
  BASE_URL?: string;
}

/** DESIGN 22: what the relay of a shard (src/events/relay.ts) answers; declared here, so that the bindings' types depend on no capability. */
export interface Relay extends Rpc.DurableObjectBranded {
  /** Events were recorded in `shard`: hand them over now. */
  poke(shard: number): Promise<void>;
  /** DESIGN 16a: a subscriber's dead-letter queue gives these events of `shard` back, to be handed to it again. */
  giveBack(shard: number, subscriber: string, ids: string[]): Promise<void>;
  /** Where the relay is: its shard and the recording order (events.seq) of the last event it handed over. */
  position(): Promise<{ shard: number; cursor: number }>;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Database;
    employerId: number;
    /** The caller's key is a test key: employerId is the employer's test space (DESIGN 21). */
    testSpace: boolean;
  };
};
