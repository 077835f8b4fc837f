// How reach calls a search engine: one JSON POST, bounded in time, its answer reduced to what the
// notifier decides on (retry or not, and when).

/** Every call to a search engine gives up after this long (then it counts as no answer: tried again). */
export const CALL_TIMEOUT_MS = 10_000;

/** A call's outcome: the answer's status (0: none), its Retry-After, and the start of its body when it failed. */
export interface CallOutcome {
  status: number;
  retryAfter: string | null;
  detail: string;
}

export async function postJson(endpoint: string, headers: Record<string, string>, body: unknown): Promise<CallOutcome> {
  try {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const detail = res.ok ? "" : (await res.text()).slice(0, 200);
    if (res.ok) await res.body?.cancel();
    return { status: res.status, retryAfter: res.headers.get("Retry-After"), detail };
  } catch (error) {
    return { status: 0, retryAfter: null, detail: String(error) };
  }
}
