/**
 * Work that may finish after the answer is sent (ctx.waitUntil), logged if it fails. Without an
 * execution context (a handler called directly in a test) the promise simply runs on.
 */
export function afterResponse(c: { executionCtx: { waitUntil(promise: Promise<unknown>): void } }, work: Promise<unknown>, failure: string): void {
  const logged = work.catch((error) => console.error(JSON.stringify({ level: "error", message: failure, error: String(error) })));
  try {
    c.executionCtx.waitUntil(logged);
  } catch {
    // No execution context.
  }
}
