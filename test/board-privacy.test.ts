import { describe, expect, it } from "vitest";
import { createEmployer, problemOf, request } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";

// DESIGN 6b: on the board (list, job, jsonLd, `location` filter) a place an employer created
// shows no id and cannot be filtered by, so a confidential employer cannot be singled out.

let unique = 0;
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const word = () => `zp${Math.random().toString(36).slice(2, 8)}`;

describe("places an employer created are never identifying on the board", async () => {
  const employer = await createEmployer({ name: "Discreet Holdings Ltd." });
  const tag = word();
  // A place not in the gazetteer: created for (and owned by) this employer.
  const ownPlace = `Privatehamlet ${tag}`;
  const confidential = await postJob(employer, { title: `${tag} Confidential`, status: "active", confidential: true, locations: [{ description: `${ownPlace}, SK` }] });
  const open = await postJob(employer, { title: `${tag} Open`, status: "active", locations: [{ description: `${ownPlace}, SK` }, { description: "Regina, SK" }] });
  const privateId: number = confidential.locations[0].id;
  await settleBoard();

  it("the employer's own answer still carries the place's id", () => {
    expect(privateId).toBeGreaterThan(0);
    expect(open.locations[0].id).toBe(privateId);
  });

  it("a board job shows an employer-created place by its text with a null id; public places keep theirs", async () => {
    for (const job of [confidential, open]) {
      const res = await request(fresh(`/board/jobs/${job.id}`));
      expect(res.status).toBe(200);
      const text = await res.text();
      const board = JSON.parse(text);
      expect(board.locations[0]).toMatchObject({ id: null, name: ownPlace, description: `${ownPlace}, SK` });
      expect(text).not.toContain(`"id":${privateId},`);
      expect(text).not.toContain(`"id":${privateId}}`);
    }
    const regina = (await (await request(fresh(`/board/jobs/${open.id}`))).json<any>()).locations[1];
    expect(regina.id).toBe(open.locations[1].id);
    expect(regina.id).not.toBeNull();
  });

  it("board list items show no employer-created place id", async () => {
    const res = await request(fresh(`/board/jobs?q=${tag}`));
    expect(res.status).toBe(200);
    const { data } = await res.json<any>();
    expect(data.map((j: any) => j.id).sort()).toEqual([confidential.id, open.id].sort());
    for (const item of data) expect(item.locations[0].id).toBeNull();
  });

  it("location= refuses an employer-created place's id with a 400 naming location, as it refuses an unknown id", async () => {
    for (const id of [privateId, 2_000_000_000]) {
      const res = await request(fresh(`/board/jobs?location=${id}`));
      expect(res.status).toBe(400);
      expect((await problemOf(res)).errors).toEqual([expect.objectContaining({ field: "location" })]);
    }
  });

  it("location= with a public place still filters, and an empty page for a public place is a 200", async () => {
    const regina = open.locations[1].id;
    const res = await request(fresh(`/board/jobs?q=${tag}&location=${regina}`));
    expect(res.status).toBe(200);
    expect((await res.json<any>()).data.map((j: any) => j.id)).toEqual([open.id]);
    const empty = await request(fresh(`/board/jobs?q=${word()}&location=${regina}`));
    expect(empty.status).toBe(200);
    expect((await empty.json<any>()).data).toEqual([]);
  });
});
