import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { API, createEmployer, problemOf, request } from "./support/api";
import { jobBody } from "./support/jobs";

const BOOKMARK = "X-D1-Bookmark";

// D1 bookmarks sort lexicographically: a later state has a greater bookmark.
const notOlder = (later: string, earlier: string) => later >= earlier;

describe("D1 sessions: global reads with read-your-writes bookmarks", () => {
  it("every API response that touched the database carries an X-D1-Bookmark", async () => {
    const employer = await createEmployer();
    for (const res of [
      await request("/locations?q=tor"),
      await request("/jobs", { apiKey: employer.apiKey }),
      await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody() }),
    ]) {
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get(BOOKMARK)).toMatch(/^[0-9a-f-]+$/);
    }
  });

  it("a bookmark advances after a write: the POST's bookmark is newer than the read before it", async () => {
    const employer = await createEmployer();
    const before = (await request("/jobs", { apiKey: employer.apiKey })).headers.get(BOOKMARK)!;
    const created = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody() });
    expect(created.status).toBe(201);
    const after = created.headers.get(BOOKMARK)!;
    expect(after).not.toBe(before);
    expect(notOlder(after, before)).toBe(true);
  });

  it("a request carrying a bookmark is honoured: it sees the write the bookmark came from", async () => {
    const employer = await createEmployer();
    const created = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ title: "Bookmarked" }) });
    const { id } = (await created.json()) as { id: number };
    const bookmark = created.headers.get(BOOKMARK)!;

    const res = await request(`/jobs/${id}`, { apiKey: employer.apiKey, headers: { [BOOKMARK]: bookmark } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { title: string }).title).toBe("Bookmarked");
    expect(notOlder(res.headers.get(BOOKMARK)!, bookmark)).toBe(true);
  });

  it("a read with a bookmark taken outside the API sees at least that state", async () => {
    await env.DB.prepare(
      "INSERT INTO locations (name, description, type, province_code, name_key, source) VALUES ('Zzyzxville', 'Zzyzxville, ON', 'City', 'ON', 'zzyzxville', 'employer')",
    ).run();
    const primary = env.DB.withSession("first-primary");
    await primary.prepare("SELECT 1").first();
    const bookmark = primary.getBookmark()!;

    const res = await request("/locations?q=zzyzx", { headers: { [BOOKMARK]: bookmark } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { name: string }[] }).data.map((l) => l.name)).toEqual(["Zzyzxville"]);
    expect(notOlder(res.headers.get(BOOKMARK)!, bookmark)).toBe(true);
  });

  it("a request without database work echoes the bookmark it was sent", async () => {
    const bookmark = (await request("/locations?q=mon")).headers.get(BOOKMARK)!;
    const res = await request("/jobs", { headers: { [BOOKMARK]: bookmark } });
    expect(res.status).toBe(401);
    expect(res.headers.get(BOOKMARK)).toBe(bookmark);
  });

  it("a malformed X-D1-Bookmark is a 400 problem, not passed to D1", async () => {
    for (const bad of ["not a bookmark!", "0".repeat(129), "00000085-0000024c;DROP"]) {
      const res = await request(`${API}/locations?q=tor`, { headers: { [BOOKMARK]: bad } });
      expect(res.status).toBe(400);
      expect((await problemOf(res)).detail).toContain(BOOKMARK);
    }
  });
});
