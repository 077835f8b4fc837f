import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { API, createEmployer, problemOf, request } from "./support/api";

const BOOKMARK = "X-D1-Bookmark";

// D1 bookmarks order lexicographically: a later state has a greater bookmark.
const notOlder = (later: string, earlier: string) => later >= earlier;

describe("D1 sessions: global reads with read-your-writes bookmarks", () => {
  it("every API response that touched the database carries an X-D1-Bookmark", async () => {
    const res = await request("/locations?q=tor");
    expect(res.status).toBe(200);
    expect(res.headers.get(BOOKMARK)).toMatch(/^[0-9a-f-]+$/);
  });

  it("a bookmark advances after a write", async () => {
    const before = (await request("/locations?q=van")).headers.get(BOOKMARK)!;
    // A write outside the API moves the database on; the next session sees a newer state.
    await createEmployer();
    const after = (await request("/locations?q=van")).headers.get(BOOKMARK)!;
    expect(after).not.toBe(before);
    expect(notOlder(after, before)).toBe(true);
  });

  it("a request carrying a bookmark is honoured: it sees data at least as new as the bookmark", async () => {
    await env.DB.prepare(
      "INSERT INTO locations (name, description, type, province_code, name_key, source) VALUES ('Zzyzxville', 'Zzyzxville, ON', 'City', 'ON', 'zzyzxville', 'request')",
    ).run();
    const written = env.DB.withSession("first-primary");
    await written.prepare("SELECT 1").first();
    const bookmark = written.getBookmark()!;

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
    const res = await request(`${API}/locations?q=tor`, { headers: { [BOOKMARK]: "not a bookmark!" } });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).detail).toContain(BOOKMARK);
  });
});
