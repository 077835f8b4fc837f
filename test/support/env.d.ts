import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerBindings } from "../../src/env";
import type * as Main from "../../src/index";

// Types `env` and `exports` from "cloudflare:workers" inside tests.
declare global {
  namespace Cloudflare {
    interface Env extends WorkerBindings {
      TEST_MIGRATIONS: D1Migration[];
      TEST_BOARD_MIGRATIONS: D1Migration[];
      TEST_ALERTS_MIGRATIONS: D1Migration[];
      TEST_ACCOUNTS_MIGRATIONS: D1Migration[];
      TEST_LOW_JOB_RATE_LIMITER: RateLimit;
      TEST_LOW_AUTH_FAILURE_RATE_LIMITER: RateLimit;
    }
    interface GlobalProps {
      mainModule: typeof Main;
    }
  }
}
