import { describe, expect, it } from "vitest";
import { createEmployer } from "./support/api";
import { capturingD1, requestWith } from "./support/d1-proxies";
import { jobBody } from "./support/jobs";

// D1 allows at most 32 arguments per SQL function; the local SQLite allows more, so only a
// look at the statements themselves can tell. Every statement the write paths prepare is
// parsed here, and every function call in it counted.

const NOT_CALLS = new Set(["IN", "VALUES", "EXISTS", "AS", "AND", "OR", "NOT", "ON", "WHERE", "FROM", "SELECT", "JOIN", "USING", "OVER", "FILTER", "THEN", "ELSE", "WHEN"]);

/** The largest argument count of any function call in `sql` (string literals skipped). */
export function widestCall(sql: string): number {
  const stack: { call: boolean; args: number; empty: boolean }[] = [];
  let widest = 0;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1);
      i = end < 0 ? sql.length : end;
      if (stack.length) stack[stack.length - 1].empty = false;
      continue;
    }
    if (ch === "(") {
      const before = /(?:(\w+)\s+)?(\w+)\s*$/.exec(sql.slice(Math.max(0, i - 80), i));
      // A name then "(" is a call, unless the name is a keyword or a table's column list follows.
      const call = !!before && !NOT_CALLS.has(before[2].toUpperCase()) && !/^(INTO|TABLE)$/i.test(before[1] ?? "");
      if (stack.length) stack[stack.length - 1].empty = false;
      stack.push({ call, args: 1, empty: true });
    } else if (ch === ")") {
      const frame = stack.pop();
      if (frame?.call && !frame.empty) widest = Math.max(widest, frame.args);
    } else if (ch === "," && stack.length) {
      stack[stack.length - 1].args++;
    } else if (!/\s/.test(ch) && stack.length) {
      stack[stack.length - 1].empty = false;
    }
  }
  return widest;
}

describe("D1's 32 arguments per SQL function", () => {
  it("the counter counts what it should", () => {
    expect(widestCall("SELECT json_object('a', 1, 'b', f(x, y, z))")).toBe(4);
    expect(widestCall("SELECT max(a, ',', ')') FROM t WHERE x IN (1, 2, 3, 4, 5)")).toBe(3);
    expect(widestCall("INSERT INTO t (a, b, c, d) VALUES (1, 2, 3, 4) RETURNING id")).toBe(0);
  });

  it("no statement of a POST, a PUT, a keyed batch or a DELETE has a function call of more than 32 arguments", async () => {
    const employer = await createEmployer();
    const { db, ran } = capturingD1();
    const post = await requestWith(db, "/jobs", { method: "POST", json: jobBody({ status: "active" }), apiKey: employer.apiKey });
    expect(post.status).toBe(201);
    const { id } = await post.json<{ id: number }>();
    expect((await requestWith(db, `/jobs/${id}`, { method: "PUT", json: { title: "Renamed" }, apiKey: employer.apiKey })).status).toBe(200);
    const batch = await requestWith(db, "/jobs/batch", {
      method: "POST",
      json: { upsert: [jobBody({ referenceId: "ARGS-1" }), jobBody({ referenceId: "ARGS-2" })] },
      apiKey: employer.apiKey,
      headers: { "Idempotency-Key": `args-${crypto.randomUUID()}` },
    });
    expect(batch.status).toBe(200);
    expect((await requestWith(db, `/jobs/${id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(204);
    expect(ran.length).toBeGreaterThan(5);
    const widest = ran.map(({ sql }) => ({ sql: sql.slice(0, 120), args: widestCall(sql) })).sort((a, b) => b.args - a.args)[0];
    expect(widest.args, widest.sql).toBeLessThanOrEqual(32);
  });
});
