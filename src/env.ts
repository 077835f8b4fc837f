import type PasskeysVerifier from "../workers/passkeys/src/index";
import type { Database } from "./db/client";
import type { MoveStatus } from "./shards/move-status";

export interface Env {
  /** The static assets (wrangler.toml [assets]): the /docs page's bundle and the prebuilt OpenAPI document. */
  ASSETS: Fetcher;
  /**
   * The employer side's database: jobs, employers, events, webhooks, applications. Shard 0 of the
   * Worker's own bindings; in the bindings of one shard (src/shards/bindings.ts atShard), that shard's.
   */
  DB: D1Database;
  /** DESIGN 22: shards 1 … N-1 of the employer side, bound as DB_1, DB_2 … */
  [shard: `DB_${number}`]: D1Database | undefined;
  /** DESIGN 22: the relays, one Durable Object per shard (named `shard:k`), that hand its events over. */
  RELAY: DurableObjectNamespace<Relay>;
  /** DESIGN 22b: the moves of employers between shards, one Durable Object per employer (named `employer:N`). */
  MOVES: DurableObjectNamespace<Mover>;
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
  /** DESIGN 25: the employer console's own database (people, invitations, sessions, sign-in links); only src/accounts touches it. */
  ACCOUNTS_DB: D1Database;
  /** DESIGN 25: the passkeys Worker (workers/passkeys), which makes and verifies the console's WebAuthn ceremonies. */
  PASSKEYS: Service<PasskeysVerifier>;
  /** DESIGN 25a: the sender of sign-in and invitation emails; absent: EMAIL_FROM. */
  ACCOUNTS_FROM?: string;
  /** DESIGN 26a: the Cloudflare Access team domain (an origin) whose tokens open the operator's console; unset or empty: the console is off (404). */
  ACCESS_TEAM_DOMAIN?: string;
  /** DESIGN 26a: the Access application's audience tag; unset or empty: the console is off (404). */
  ACCESS_AUD?: string;
  /** DESIGN 26a: `npm run dev` only (.dev.vars): the private RSA JWK of the dev stand-in of Access (src/operator/stand-in.ts). */
  ACCESS_DEV_PRIVATE_JWK?: string;
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
  /** Public origin used in Location headers and paging links; empty = the request's origin. Reach (DESIGN 24) names job pages by it: empty, reach sends nothing. */
  BASE_URL?: string;
  /** DESIGN 24: job events for reach (src/reach/consumer.ts); the same Worker consumes them. */
  REACH_QUEUE: Queue;
  /** DESIGN 24: reach's notifier, one Durable Object (named "reach"): pages gathered, notices waiting, the send log, receipts. */
  REACH: DurableObjectNamespace<Reach>;
  /** DESIGN 24a: IndexNow's key (a var); empty: IndexNow off. */
  INDEXNOW_KEY?: string;
  /** DESIGN 24a: default https://api.indexnow.org/indexnow. */
  INDEXNOW_ENDPOINT?: string;
  /** DESIGN 24a: the service account's JSON key as Google issues it (a secret); absent: Google off. */
  GOOGLE_INDEXING_SERVICE_ACCOUNT?: string;
  /** DESIGN 24a: default https://indexing.googleapis.com/v3/urlNotifications:publish. */
  GOOGLE_INDEXING_ENDPOINT?: string;
  /** DESIGN 24a: default https://oauth2.googleapis.com/token. */
  GOOGLE_TOKEN_ENDPOINT?: string;
  /** DESIGN 24a: Google Indexing API requests per UTC day (default 200). */
  GOOGLE_INDEXING_DAILY_QUOTA?: string;
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

/** DESIGN 22b: what the move of an employer (src/shards/employer-move.ts) answers; declared here, like Relay. */
export interface Mover extends Rpc.DurableObjectBranded {
  /** Moves the employer to shard `to` (or answers its move under way, or done, to `to`); `refused`: why not. */
  start(employerId: number, to: number): Promise<MoveStatus | { refused: string }>;
  /** Its move's status; null when the Worker never moved it. */
  status(): Promise<MoveStatus | null>;
}

/** DESIGN 24: what reach's notifier (src/reach/notifier.ts) answers; declared here, like Relay. */
export interface Reach extends Rpc.DurableObjectBranded {
  /** A queue batch's page changes, gathered, and the receipts of its events, in one storage write. */
  gather(batch: {
    changes: { jobId: number; revision: number; deleted: boolean; test: boolean; shown: boolean; paths: string[]; digest: string | null; closeAt: number }[];
    receipts: { shard: number; ids: string[] }[];
    now: number;
  }): Promise<void>;
  /** DESIGN 16a: of these events of `shard`, those reach has taken. */
  taken(shard: number, ids: string[]): Promise<string[]>;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Database;
    employerId: number;
    /** The caller's key is a test key: employerId is the employer's test space (DESIGN 21). */
    testSpace: boolean;
    /** The app itself, handed to every request (src/app.ts), to serve one again after a move (src/shards/follow.ts). */
    app: { fetch: (request: Request, env: Env, ctx?: ExecutionContext) => Response | Promise<Response> };
  };
};
