import { describe, expect, it } from "vitest";
import { changeKey, webhookIdsPerChange } from "../../scripts/lib/webhook-ids.mjs";

// Issue 51: the crash test counts webhook-ids per change as a Standard Webhooks receiver would.

const job = (type, id, etag) => ({ type, data: { job: { id }, etag, revision: 2 } });

describe("webhook-ids per change (issue 51)", () => {
  it("a change is (type, job, ETag) for job events, (type, job) for job.deleted, (type, application) for applications", () => {
    expect(changeKey(job("job.updated", 7, '"7.2.1"'))).toBe('job.updated job 7 "7.2.1"');
    expect(changeKey(job("job.updated", 7, '"7.3.1"'))).not.toBe(changeKey(job("job.updated", 7, '"7.2.1"')));
    expect(changeKey(job("job.published", 7, '"7.2.1"'))).not.toBe(changeKey(job("job.updated", 7, '"7.2.1"')));
    expect(changeKey({ type: "job.deleted", data: { job: { id: 7 } } })).toBe("job.deleted job 7");
    expect(changeKey({ type: "application.received", data: { application: { id: 9 } } })).toBe("application.received application 9");
  });

  it("the same webhook-id again is a retry (one id); two webhook-ids for one change at one endpoint are counted and named", () => {
    const change = changeKey(job("job.updated", 7, '"7.2.1"'));
    const result = webhookIdsPerChange([
      { endpoint: 1, change, webhookId: "msg_a" },
      { endpoint: 1, change, webhookId: "msg_a" },
      { endpoint: 2, change, webhookId: "msg_b" },
      { endpoint: 1, change: changeKey(job("job.updated", 8, '"8.1.1"')), webhookId: "msg_c" },
    ]);
    expect(result).toEqual({ changes: 3, histogram: { 1: 3 }, max: 1, doubled: [] });
    const twice = webhookIdsPerChange([
      { endpoint: 1, change, webhookId: "msg_a" },
      { endpoint: 1, change, webhookId: "msg_d" },
    ]);
    expect(twice).toEqual({ changes: 1, histogram: { 2: 1 }, max: 2, doubled: [{ key: `1 ${change}`, webhookIds: ["msg_a", "msg_d"] }] });
  });
});
