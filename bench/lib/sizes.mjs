// The bench's sizes, at the issues' figures unless said otherwise. BENCH_QUICK=1: a smoke run
// (a few minutes) with smaller data and shorter slices; its numbers are not the report's. Every
// size can also be set on its own (BENCH_LARGE=…).
export const QUICK = process.env.BENCH_QUICK === "1";
export const setting = (name, full, quick) => Number(process.env[name] ?? (QUICK ? quick : full));

const KiB = 1024;
const MiB = 1024 * KiB;

export const SIZES = {
  CONNECTIONS: setting("BENCH_CONNECTIONS", 10, 10),
  SLICE_SECONDS: setting("BENCH_SLICE_SECONDS", 2, 1),
  ROUNDS: setting("BENCH_ROUNDS", 3, 1),
  WARMUP_SECONDS: 1,
  SEQUENTIAL_SAMPLES: setting("BENCH_SEQUENTIAL_SAMPLES", 200, 40),
  SMALL: 1_000,
  LARGE: setting("BENCH_LARGE", 100_000, 10_000),
  CRON_JOBS: setting("BENCH_CRON_JOBS", 100_000, 10_000),
  WRITE_POOL: setting("BENCH_WRITE_POOL", 60_000, 5_000),
  DELETE_POOL: setting("BENCH_DELETE_POOL", 60_000, 5_000),
  CLEANER_SHAPE_BYTES: setting("BENCH_CLEANER_SHAPE_BYTES", MiB, 128 * KiB),
  CLEANER_ROUNDS: setting("BENCH_CLEANER_ROUNDS", 2, 1),
  HOSTILE_REPEATS: setting("BENCH_HOSTILE_REPEATS", 3, 1),
  STALL_ROUNDS: setting("BENCH_STALL_ROUNDS", 3, 1),
  BATCH_SEEDED: setting("BENCH_BATCH_SEEDED", 20_000, 2_000),
  BATCH_ROUNDS: setting("BENCH_BATCH_ROUNDS", 5, 2),
  BOARD_SAMPLES: setting("BENCH_BOARD_SAMPLES", 100, 20),
  APPLY_SAMPLES: setting("BENCH_APPLY_SAMPLES", 10, 3),
  SCREENING_SAMPLES: setting("BENCH_SCREENING_SAMPLES", 40, 6),
  // DESIGN 21: reconcile of 10 000 referenceIds and a batch of 100 upserts, in turn.
  RECONCILE_SAMPLES: setting("BENCH_RECONCILE_SAMPLES", 20, 4),
  // Slices per variant for the posting rules' A/B: a 3 % difference needs more than the 3 of the others.
  POSTING_RULES_ROUNDS: setting("BENCH_POSTING_RULES_ROUNDS", 8, 2),
  // Issue 27: fresh runtimes whose first request is timed.
  COLD_START_ROUNDS: setting("BENCH_COLD_START_ROUNDS", 5, 2),
  // DESIGN 17: board staleness is a p99 over 100 changes.
  STALENESS_CHANGES: setting("BENCH_STALENESS_CHANGES", 100, 100),
  HANDOVER_SAMPLES: setting("BENCH_HANDOVER_SAMPLES", 100, 20),
  HANDOVER_LOAD_PER_SECOND: 80,
  HANDOVER_LOAD_JOBS: setting("BENCH_HANDOVER_LOAD_JOBS", 20_000, 5_000),
  // DESIGN 22b: a move of 10 000 jobs, through `npm run shards -- move` as people run it.
  MOVE_JOBS: setting("BENCH_MOVE_JOBS", 10_000, 1_000),
  // DESIGN 16a: consumer batches with and without receipts, each way, in turn (a batch is a queue's, whatever the mode).
  RECEIPTS_SAMPLES: setting("BENCH_RECEIPTS_SAMPLES", 30, 15),
  // Slices of the receipts row's own write measure, when the operations row's PUT by id is not in
  // the same run (more than the quick 1: the write is compared with a figure from another run).
  RECEIPTS_WRITE_ROUNDS: setting("BENCH_RECEIPTS_WRITE_ROUNDS", 5, 5),
  // DESIGN 24: slices per variant of reach's A/B (on ÷ off ≥ 0.95: a 5 % difference to tell apart).
  REACH_ROUNDS: setting("BENCH_REACH_ROUNDS", 5, 2),
  // DESIGN 23: job alerts, matching one job at two sizes (the same true matches); the day's new
  // jobs, matched one by one before the digests.
  ALERTS_SMALL: setting("BENCH_ALERTS_SMALL", 1_000, 100),
  ALERTS_LARGE: setting("BENCH_ALERTS_LARGE", 100_000, 5_000),
  // A day's digests for this many of those alerts (issue 50: 100 000 at 1 000 alerts/s or more;
  // fewer, the others paused, for a shorter run). The report says which size ran.
  ALERTS_DIGESTS: setting("BENCH_ALERTS_DIGESTS", 100_000, 2_000),
  ALERTS_SAMPLES: setting("BENCH_ALERTS_SAMPLES", 100, 20),
  ALERTS_DAY_JOBS: setting("BENCH_ALERTS_DAY_JOBS", 40, 10),
  // Issue 48 item 9: the console's employer (its list's 20 a page out of these) and the rounds of each pair.
  CONSOLE_JOBS: setting("BENCH_CONSOLE_JOBS", 1_000, 200),
  CONSOLE_SAMPLES: setting("BENCH_CONSOLE_SAMPLES", 200, 40),
  // Issue 38: rounds of the board misses' split (each round one slice per variant, the order
  // reversed every other round).
  BOARD_MISSES_ROUNDS: setting("BENCH_BOARD_MISSES_ROUNDS", 4, 2),
};
