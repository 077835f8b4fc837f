// The delivery contract of queue consumers that reach outside (webhooks, the emailed copy):
// one attempt per hand-over, retried by the queue with growing delays (DESIGN 13, 15).

/** Delays before attempts 2 to 8 (seconds): about 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h. */
export const RETRY_DELAYS_SECONDS = [5, 60, 300, 1800, 7200, 18000, 36000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** The delay before the next attempt after `attempts` failed ones, or null when none is left. */
export function retryDelaySeconds(attempts: number): number | null {
  return attempts < MAX_ATTEMPTS ? RETRY_DELAYS_SECONDS[attempts - 1] : null;
}
