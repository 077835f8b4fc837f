import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { renderJobEventData } from "../src/jobs/event-data";
import { createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { settleBoard } from "./support/board";
import { afterAnswers, interleavedD1, requestWith } from "./support/d1-proxies";
import { jobBody, postJob } from "./support/jobs";

// DESIGN 19 and 19a over HTTP: every job answer lists its posting rules; `enforce` refuses a
// write that would publish a broken posting, and stores nothing.

/** An Ontario job meeting every rule of Ontario. */
const ontario = (overrides: Record<string, unknown> = {}) =>
  jobBody({
    locations: [{ description: "Toronto, ON" }],
    salary: { amount: 60000, maxAmount: 70000, type: { id: 1 } },
    aiUsedInSelection: false,
    existingVacancy: true,
    status: "active",
    ...overrides,
  });
const settings = (who: TestEmployer, json: Record<string, unknown>) => request("/employer", { method: "PUT", apiKey: who.apiKey, json });
const statuses = (job: Record<string, any>) => Object.fromEntries((job.postingRules as { rule: string; status: string }[]).map((r) => [r.rule, r.status]));
const countJobs = async (who: TestEmployer) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE employer_id = ?").bind(who.employerId).first<{ n: number }>())!.n;

describe("new job members (DESIGN 19): aiUsedInSelection, existingVacancy, translations", () => {
  it("are null by default and stored as given; translations.fr's description is cleaned like the main one", async () => {
    const employer = await createEmployer();
    const plain = await postJob(employer);
    expect(plain).toMatchObject({ aiUsedInSelection: null, existingVacancy: null, translations: null });
    const job = await postJob(employer, {
      aiUsedInSelection: true,
      existingVacancy: false,
      translations: { fr: { title: "Comptable principal", description: '<p onclick="x()">Joignez-vous <script>alert(1)</script><b>à nous</b></p>' } },
    });
    expect(job).toMatchObject({
      aiUsedInSelection: true,
      existingVacancy: false,
      translations: { fr: { title: "Comptable principal", description: "<p>Joignez-vous <b>à nous</b></p>" } },
    });
    const read = await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>();
    expect(read.translations).toEqual(job.translations);
  });

  it("translations.fr merges member by member; null clears it, and so does translations: null", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { translations: { fr: { title: "Titre", description: "<p>Texte</p>" } } });
    const put = (json: Record<string, unknown>) => request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json }).then((res) => res.json<any>());
    expect((await put({ translations: { fr: { title: "Nouveau titre" } } })).translations).toEqual({ fr: { title: "Nouveau titre", description: "<p>Texte</p>" } });
    expect((await put({ translations: { fr: null } })).translations).toBeNull();
    await put({ translations: { fr: { title: "Encore", description: "Oui" } } });
    expect((await put({ translations: null })).translations).toBeNull();
  });

  it("bad values are a 400 naming each member; nothing is stored", async () => {
    const employer = await createEmployer();
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      json: jobBody({ aiUsedInSelection: "no", existingVacancy: 1, translations: { fr: { title: "Titre seul" }, en: { title: "x", description: "y" } } }),
    });
    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors!.map((error) => error.field).sort()).toEqual([
      "aiUsedInSelection",
      "existingVacancy",
      "translations.en",
      "translations.fr.description",
    ]);
    for (const [translations, field] of [
      [{ fr: { description: "<p>sans titre</p>" } }, "translations.fr.title"],
      [{ fr: { title: "x".repeat(257), description: "y" } }, "translations.fr.title"],
      [{ fr: { title: "Titre", description: "" } }, "translations.fr.description"],
      [{ fr: "Titre" }, "translations.fr"],
      ["fr", "translations"],
      [{ fr: { title: "Titre", description: "<b>".repeat(20_000) } }, "translations.fr.description"],
    ] as const) {
      const one = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ translations }) });
      expect(one.status, JSON.stringify(translations).slice(0, 80)).toBe(400);
      expect((await problemOf(one)).errors!.map((error) => error.field), JSON.stringify(translations).slice(0, 80)).toEqual([field]);
    }
    expect(await countJobs(employer)).toBe(0);
  });
});

describe("every job answer carries postingRules for the jurisdictions of its places (DESIGN 19a)", () => {
  it("POST, GET, PUT and the list show the same outcomes, with rule, jurisdiction, status, message and source", async () => {
    const employer = await createEmployer();
    const created = await postJob(employer, ontario({ locations: [{ description: "Toronto, ON" }, { description: "Montréal, QC" }] }));
    expect(created.postingRules).toHaveLength(5);
    expect(created.postingRules[0]).toEqual({
      rule: "on.pay",
      jurisdiction: "ON",
      status: "met",
      message: expect.any(String),
      source: expect.stringMatching(/^https:\/\/www\.ontario\.ca\//),
    });
    expect(statuses(created)).toEqual({ "on.pay": "met", "on.ai": "met", "on.vacancy": "met", "on.canadianExperience": "met", "qc.french": "broken" });
    const read = await (await request(`/jobs/${created.id}`, { apiKey: employer.apiKey })).json<any>();
    expect(read.postingRules).toEqual(created.postingRules);
    const list = await (await request("/jobs", { apiKey: employer.apiKey })).json<any>();
    expect(list.data[0].postingRules).toEqual(created.postingRules);
    const put = await request(`/jobs/${created.id}`, { method: "PUT", apiKey: employer.apiKey, json: { translations: { fr: { title: "Comptable", description: "<p>Oui</p>" } } } });
    expect(statuses(await put.json<any>())["qc.french"]).toBe("met");
  });

  it("a job in a province with no rules (or none of its places) lists none", async () => {
    const employer = await createEmployer();
    expect((await postJob(employer, { locations: [{ description: "Regina, SK" }] })).postingRules).toEqual([]);
  });

  it("a city's province counts, and so does a province named as a place; a place the employer created counts by its code", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, { locations: [{ description: "British Columbia" }, { description: "Tinyhamlet Nowhere, PE" }] });
    expect(job.postingRules.map((r: { rule: string }) => r.rule)).toEqual(["bc.pay", "pe.pay"]);
    expect(statuses(job)).toEqual({ "bc.pay": "broken", "pe.pay": "broken" });
  });

  it("the list knows what the texts say without reading them: Canadian experience in the description is broken there too", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario({ description: "<p>Must have <em>Canadian</em> experience.</p>" }));
    expect(statuses(job)["on.canadianExperience"]).toBe("broken");
    const list = await (await request("/jobs", { apiKey: employer.apiKey })).json<any>();
    expect(statuses(list.data[0])["on.canadianExperience"]).toBe("broken");
  });

  it("the answers follow the employer's settings as they are now, and the job's ETag changes with them", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario({ aiUsedInSelection: null }));
    expect(statuses(job)["on.ai"]).toBe("broken");
    const first = await request(`/jobs/${job.id}`, { apiKey: employer.apiKey });
    const etag = first.headers.get("ETag")!;
    expect((await settings(employer, { ontarioEmployees: 10 })).status).toBe(200);
    const again = await request(`/jobs/${job.id}`, { apiKey: employer.apiKey, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(200);
    expect(again.headers.get("ETag")).not.toBe(etag);
    expect(statuses(await again.json<any>())).toEqual({ "on.pay": "notApplicable", "on.ai": "notApplicable", "on.vacancy": "notApplicable", "on.canadianExperience": "notApplicable" });
    // The old ETag no longer matches for If-Match either.
    const stale = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, headers: { "If-Match": etag }, json: { title: "x" } });
    expect(stale.status).toBe(412);
  });

  it("a federally regulated employer: provincial rules not applicable, Quebec's French still applies", async () => {
    const employer = await createEmployer();
    await settings(employer, { federallyRegulated: true });
    const job = await postJob(employer, { locations: [{ description: "Ottawa, ON" }, { description: "Gatineau, QC" }], status: "active" });
    expect(statuses(job)).toEqual({ "on.pay": "notApplicable", "on.ai": "notApplicable", "on.vacancy": "notApplicable", "on.canadianExperience": "notApplicable", "qc.french": "broken" });
  });

  it("validateOnly shows them without writing", async () => {
    const employer = await createEmployer();
    const res = await request("/jobs?validateOnly=true", { method: "POST", apiKey: employer.apiKey, json: ontario({ salary: null }) });
    expect(res.status).toBe(200);
    expect(statuses(await res.json<any>())["on.pay"]).toBe("broken");
    expect(await countJobs(employer)).toBe(0);
  });

  it("job events carry them, as the change left the job", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario({ existingVacancy: null }));
    const event = await env.DB.prepare("SELECT type, data FROM events WHERE subject_id = ? AND type = 'job.created'").bind(job.id).first<{ type: string; data: string }>();
    const data = renderJobEventData(event!.type, event!.data) as { job: any; etag: string };
    expect(statuses(data.job)["on.vacancy"]).toBe("broken");
    expect(data.job.postingRules).toEqual(job.postingRules);
  });

  it("an event recorded before these members existed still renders, with their defaults and its postingRules", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario());
    const event = await env.DB.prepare("SELECT type, data FROM events WHERE subject_id = ? AND type = 'job.created'").bind(job.id).first<{ type: string; data: string }>();
    const old = JSON.parse(event!.data);
    for (const member of ["aiUsedInSelection", "existingVacancy", "translations", "canadianExperience", "questions", "employerOntarioEmployees", "employerFederallyRegulated", "employerPostingRules", "employerRevision"]) {
      delete old.job[member];
    }
    const data = renderJobEventData("job.created", JSON.stringify(old)) as { job: any; etag: string };
    expect(data.job).toMatchObject({ id: job.id, aiUsedInSelection: null, existingVacancy: null, translations: null, questions: [] });
    expect(statuses(data.job)).toMatchObject({ "on.pay": "met", "on.ai": "broken", "on.vacancy": "broken" });
    expect(data.etag).toBe(`"${job.id}.1.1"`);
  });

  it("a board row projected before these members existed still renders, with their defaults", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario());
    await settleBoard();
    await env.BOARD_DB.prepare(
      "UPDATE board_jobs SET job = json_remove(job, '$.aiUsedInSelection', '$.existingVacancy', '$.translations', '$.canadianExperience', '$.questions') WHERE job_id = ?",
    )
      .bind(job.id)
      .run();
    const res = await request(`/board/jobs/${job.id}?t=${Date.now()}`);
    expect(res.status).toBe(200);
    expect(await res.json<any>()).toMatchObject({ id: job.id, aiUsedInSelection: null, existingVacancy: null, translations: null, questions: [] });
  });

  it("the board job carries the statements and the French version, never postingRules", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario({ translations: { fr: { title: "Comptable", description: "<p>Oui</p>" } } }));
    await settleBoard();
    const board = await (await request(`/board/jobs/${job.id}?t=${Date.now()}`)).json<any>();
    expect(board).toMatchObject({ aiUsedInSelection: false, existingVacancy: true, translations: { fr: { title: "Comptable", description: "<p>Oui</p>" } } });
    expect(board).not.toHaveProperty("postingRules");
  });
});

describe("enforce: a write that would leave a job active with a broken rule is refused (DESIGN 19a)", () => {
  const enforcing = async () => {
    const employer = await createEmployer();
    expect((await settings(employer, { postingRules: "enforce" })).status).toBe(200);
    return employer;
  };

  it("POST: 422 /problems/posting-rules naming the rule, the member and the law of each broken rule; nothing stored", async () => {
    const employer = await enforcing();
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      json: ontario({ salary: { amount: 20, maxAmount: 45, type: { id: 5 } }, aiUsedInSelection: null, title: "Accountant, Canadian experience required" }),
    });
    expect(res.status).toBe(422);
    const problem = await problemOf(res);
    expect(problem.type).toBe("/problems/posting-rules");
    expect(problem.errors).toEqual([
      { field: "salary", rule: "on.pay", law: expect.stringContaining("O. Reg. 476/24"), message: expect.stringContaining("52,000 CAD") },
      { field: "aiUsedInSelection", rule: "on.ai", law: expect.stringContaining("Employment Standards Act, 2000"), message: expect.any(String) },
      { field: "title", rule: "on.canadianExperience", law: expect.stringContaining("s. 8.4"), message: expect.any(String) },
    ]);
    expect(await countJobs(employer)).toBe(0);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE employer_id = ?").bind(employer.employerId).first<{ n: number }>();
    expect(events!.n).toBe(0);
  });

  it("drafts are never refused, and publishing the draft is", async () => {
    const employer = await enforcing();
    const draft = await postJob(employer, ontario({ status: "draft", salary: null }));
    expect(statuses(draft)["on.pay"]).toBe("broken");
    const publish = await request(`/jobs/${draft.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "active" } });
    expect(publish.status).toBe(422);
    expect((await problemOf(publish)).errors!.map((error) => error.field)).toEqual(["salary"]);
    const read = await (await request(`/jobs/${draft.id}`, { apiKey: employer.apiKey })).json<any>();
    expect(read.status).toBe("draft");
    const fixed = await request(`/jobs/${draft.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "active", salary: { amount: 70000, type: { id: 1 } } } });
    expect(fixed.status).toBe(200);
  });

  it("an active job that breaks a rule after the switch to enforce: any PUT leaving it active is refused, even one changing nothing the rule reads; archiving and DELETE never are", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario({ existingVacancy: null }));
    await settings(employer, { postingRules: "enforce" });
    const retitle = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "New title" } });
    expect(retitle.status).toBe(422);
    expect((await problemOf(retitle)).errors!.map((error) => error.rule)).toEqual(["on.vacancy"]);
    const noop = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: {} });
    expect(noop.status).toBe(422);
    const archive = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } });
    expect(archive.status).toBe(200);
    expect((await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(204);
  });

  it("validateOnly answers the same 422", async () => {
    const employer = await enforcing();
    const res = await request("/jobs?validateOnly=true", { method: "POST", apiKey: employer.apiKey, json: ontario({ existingVacancy: null }) });
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors!.map((error) => error.rule)).toEqual(["on.vacancy"]);
  });

  it("PUT by referenceId refuses a creation and an update alike", async () => {
    const employer = await enforcing();
    const create = await request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: ontario({ referenceId: "ENF-1", aiUsedInSelection: null }) });
    expect(create.status).toBe(422);
    expect(await countJobs(employer)).toBe(0);
    expect((await request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: ontario({ referenceId: "ENF-1" }) })).status).toBe(201);
    const update = await request("/jobs", { method: "PUT", apiKey: employer.apiKey, json: { referenceId: "ENF-1", salary: null } });
    expect(update.status).toBe(422);
  });

  it("a small Ontario employer is not refused for Ontario's size rules; warn lets the write through and lists what is broken", async () => {
    const small = await createEmployer();
    await settings(small, { postingRules: "enforce", ontarioEmployees: 5 });
    expect((await request("/jobs", { method: "POST", apiKey: small.apiKey, json: ontario({ salary: null, aiUsedInSelection: null }) })).status).toBe(201);
    const warned = await createEmployer();
    const job = await postJob(warned, ontario({ salary: null }));
    expect(statuses(job)["on.pay"]).toBe("broken");
  });

  it("the refusal follows a settings change at once: enforce, then warn again", async () => {
    const employer = await enforcing();
    const body = ontario({ locations: [{ description: "Québec, QC" }] });
    expect((await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: body })).status).toBe(422);
    await settings(employer, { postingRules: "warn" });
    expect((await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: body })).status).toBe(201);
    await settings(employer, { postingRules: "enforce" });
    expect((await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: body })).status).toBe(422);
  });

  it("the check and the write are one step: a switch to enforce between a POST's judgment and its write refuses it", async () => {
    const employer = await createEmployer();
    const enforceMeanwhile = () =>
      env.DB.prepare("UPDATE employers SET posting_rules = 'enforce', revision = revision + 1 WHERE id = ?").bind(employer.employerId).run();
    const res = await requestWith(interleavedD1(enforceMeanwhile), "/jobs", { method: "POST", apiKey: employer.apiKey, json: ontario({ aiUsedInSelection: null }) });
    await afterAnswers();
    expect(res.status).toBe(422);
    expect((await problemOf(res)).errors!.map((error) => error.rule)).toEqual(["on.ai"]);
    expect(await countJobs(employer)).toBe(0);
  });

  it("a settings change between a PUT's read and its write: the PUT is judged again by the new settings", async () => {
    const employer = await createEmployer();
    const job = await postJob(employer, ontario({ existingVacancy: null }));
    const enforceMeanwhile = () =>
      env.DB.prepare("UPDATE employers SET posting_rules = 'enforce', revision = revision + 1 WHERE id = ?").bind(employer.employerId).run();
    const res = await requestWith(interleavedD1(enforceMeanwhile), `/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Changed" } });
    await afterAnswers();
    expect(res.status).toBe(422);
    const read = await (await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).json<any>();
    expect(read.title).toBe(job.title);
  });

  it("batch entries are refused one by one, like any other per-entry error; the others are stored", async () => {
    const employer = await enforcing();
    const res = await request("/jobs/batch", {
      method: "POST",
      apiKey: employer.apiKey,
      json: { upsert: [ontario({ referenceId: "B-OK" }), ontario({ referenceId: "B-BAD", existingVacancy: null }), ontario({ referenceId: "B-DRAFT", status: "draft", salary: null })] },
    });
    expect(res.status).toBe(200);
    const { results } = await res.json<any>();
    expect(results.map((result: { status: number }) => result.status)).toEqual([201, 422, 201]);
    expect(results[1]).toMatchObject({ type: "/problems/posting-rules", errors: [{ field: "existingVacancy", rule: "on.vacancy" }] });
    expect(statuses(results[0].job)).toMatchObject({ "on.vacancy": "met" });
    expect(statuses(results[2].job)["on.pay"]).toBe("broken");
    expect(await countJobs(employer)).toBe(2);
    const dryRun = await request("/jobs/batch?validateOnly=true", { method: "POST", apiKey: employer.apiKey, json: { upsert: [ontario({ referenceId: "B-BAD", existingVacancy: null })] } });
    expect((await dryRun.json<any>()).results[0].status).toBe(422);
  });
});
