import type { Database } from "./db/client";

export interface Env {
  DB: D1Database;
  API_KEYS: KVNamespace;
  /** Public origin used in Location headers and paging links; empty = the request's origin. */
  BASE_URL?: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Database;
    employerId: number;
  };
};
