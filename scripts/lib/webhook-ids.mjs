// Issue 51: what a receiver following Standard Webhooks sees. It deduplicates by `webhook-id`, so
// one change (an event's type, its job or application, the job's ETag) that arrives under two
// webhook-ids at one endpoint is applied twice. The crash test reports these counts per change.

/**
 * A change as a receiver tells it apart: (type, job id, ETag) for job events (the ETag names the
 * job's revision: src/jobs/etag.ts), (type, job id) for job.deleted, (type, application id).
 */
export function changeKey(payload) {
  const type = String(payload?.type ?? "?");
  const data = payload?.data ?? {};
  if (type.startsWith("application.")) return `${type} application ${data.application?.id}`;
  if (type === "job.deleted" || data.etag === undefined) return `${type} job ${data.job?.id}`;
  return `${type} job ${data.job?.id} ${data.etag}`;
}

/**
 * Per (endpoint, change), the distinct webhook-ids received: `deliveries` are
 * `{ endpoint, change, webhookId }`. Returns the histogram (how many changes came under 1, 2, …
 * webhook-ids), the largest count, and the changes that came under more than one, each with its ids.
 */
export function webhookIdsPerChange(deliveries) {
  const ids = new Map();
  for (const { endpoint, change, webhookId } of deliveries) {
    const key = `${endpoint} ${change}`;
    if (!ids.has(key)) ids.set(key, new Set());
    ids.get(key).add(webhookId);
  }
  const histogram = {};
  const doubled = [];
  let max = 0;
  for (const [key, set] of ids) {
    histogram[set.size] = (histogram[set.size] ?? 0) + 1;
    max = Math.max(max, set.size);
    if (set.size > 1) doubled.push({ key, webhookIds: [...set] });
  }
  return { changes: ids.size, histogram, max, doubled };
}
