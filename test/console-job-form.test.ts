import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EDITOR_SCRIPT_PATH } from "../src/console/jobs/editor/asset";
import { fieldOfPath, placeErrors } from "../src/console/jobs/fields";
import { bodyOf, differences, formOfJob, numberOf, readForm, type JobForm } from "../src/console/jobs/form";
import type { Job } from "../src/jobs/schemas";
import { BASE, createEmployer, request } from "./support/api";
import { call, signedIn } from "./support/console";

// DESIGN 25a: the console's job form ↔ the API's job body, and where the API's answers go on the
// form — pure functions, checked here without the Worker (test/console-jobs.test.ts drives it) —
// and the description editor's script on the form's pages, through the Worker.

const EMPTY = readForm({});
const form = (fields: Partial<JobForm>): JobForm => ({ ...EMPTY, ...fields });
const EMPTY_QUESTION = { key: "k", text: "T?", type: "yesNo", required: false, options: "", knockoutAnswer: "", knockout: "", maxLength: "", min: "", max: "" };

const SAVED_JOB: Job = {
  id: 7,
  referenceId: "REF-7",
  employer: { id: 1, name: "Acme" },
  title: "Welder",
  publishDate: "2026-11-01T10:00:00Z",
  closeDate: "2026-12-31T10:00:00Z",
  confidential: false,
  autoRefresh: true,
  status: "active",
  locations: [{ id: 21, name: "Vancouver", description: "Vancouver, BC", type: "City", latitude: 49.2, longitude: -123.1 }],
  categories: [{ id: 27, name: "Skilled Trades" }],
  positionType: { id: 1, name: "Full Time" },
  salary: { amount: 31.5, maxAmount: null, type: { id: 5, name: "Hourly", unit: "hour" }, plusCommission: false },
  description: "<p>Weld.</p>",
  applicantRoutingType: { id: 2, name: "URL" },
  applicationEmail: null,
  applicationUrl: "https://acme.example/apply",
  aiUsedInSelection: false,
  existingVacancy: null,
  translations: { fr: { title: "Soudeur", description: "<p>Souder.</p>" } },
  questions: [
    { key: "ticket", text: "Do you hold a ticket?", type: "yesNo", required: true, options: null, maxLength: null, min: null, max: null, knockout: false },
    { key: "years", text: "Years of experience?", type: "number", required: false, options: null, maxLength: null, min: 0, max: 50, knockout: null },
  ],
  postingRules: [],
};

describe("reading the form (DESIGN 25a)", () => {
  it("repeated fields in order, empty places and empty question rows left out, one-line fields trimmed, a checkbox present means true", () => {
    const read = readForm({
      title: "  Welder ",
      location: ["Vancouver, BC", "  ", "Kelowna"],
      category: ["1", "6"],
      confidential: "true",
      description: "  <p>kept as typed</p>\r\n",
      "questions[0].key": "",
      "questions[0].text": "",
      "questions[0].type": "yesNo",
      "questions[1].key": "shift",
      "questions[1].text": "Which shift?",
      "questions[1].type": "singleChoice",
      "questions[1].options": "Day\r\nNight",
    });
    expect(read.title).toBe("Welder");
    expect(read.locations).toEqual(["Vancouver, BC", "Kelowna"]);
    expect(read.categories).toEqual(["1", "6"]);
    expect(read.confidential).toBe(true);
    expect(read.autoRefresh).toBe(false);
    expect(read.description).toBe("  <p>kept as typed</p>\r\n");
    expect(read.questions).toEqual([
      { key: "shift", text: "Which shift?", type: "singleChoice", required: false, options: "Day\r\nNight", knockoutAnswer: "", knockout: "", maxLength: "", min: "", max: "" },
    ]);
  });
});

describe("the form's JSON body (DESIGN 25a)", () => {
  it("on create, an empty field is a member left out", () => {
    expect(bodyOf(form({ title: "Clerk", status: "draft", locations: ["Kelowna"], categories: ["2"] }), "create")).toEqual({
      body: { title: "Clerk", status: "draft", locations: [{ description: "Kelowna" }], categories: [{ id: 2 }] },
      problems: [],
    });
  });

  it("on save, an empty field clears its member (null; false for a checkbox)", () => {
    const { body } = bodyOf(form({ title: "Clerk", status: "active" }), "save");
    expect(body).toEqual({
      title: "Clerk",
      referenceId: null,
      status: "active",
      closeDate: null,
      confidential: false,
      autoRefresh: false,
      locations: null,
      categories: null,
      positionType: null,
      salary: null,
      description: null,
      translations: null,
      applicantRoutingType: null,
      applicationEmail: null,
      applicationUrl: null,
      aiUsedInSelection: null,
      existingVacancy: null,
      questions: null,
    });
  });

  it("pay: the members typed (all of them, null where empty, on save); amounts as people write them", () => {
    expect(bodyOf(form({ salaryAmount: "65 000", salaryType: "1" }), "create").body.salary).toEqual({ amount: 65000, type: { id: 1 } });
    expect(bodyOf(form({ salaryAmount: "27,50", plusCommission: true }), "save").body.salary).toEqual({ amount: 27.5, maxAmount: null, type: null, plusCommission: true });
    for (const [text, value] of [["65,000", 65000], ["65000.25", 65000.25], ["1 234,5", 1234.5], ["-3", -3], ["abc", undefined], ["1.2.3", undefined], ["", undefined]] as const) {
      expect(numberOf(text), text).toBe(value);
    }
  });

  it("what the form cannot put into JSON is named, and that member left out (the rest still goes to the service)", () => {
    const { body, problems } = bodyOf(form({ salaryAmount: "lots", salaryType: "1", positionType: "full", aiUsedInSelection: "maybe", categories: ["1", "x"] }), "save");
    expect(problems).toEqual([
      { field: "categories", problem: "choice" },
      { field: "positionType", problem: "choice" },
      { field: "salaryAmount", problem: "number" },
      { field: "aiUsedInSelection", problem: "choice" },
    ]);
    expect(body.salary).toEqual({ maxAmount: null, type: { id: 1 }, plusCommission: false });
    expect(body).not.toHaveProperty("positionType");
    expect(body).not.toHaveProperty("aiUsedInSelection");
    expect(body.categories).toEqual([{ id: 1 }]);
  });

  it("the French version: the parts typed on create, both (null where empty) on save", () => {
    expect(bodyOf(form({ frTitle: "Soudeur" }), "create").body.translations).toEqual({ fr: { title: "Soudeur" } });
    expect(bodyOf(form({ frTitle: "Soudeur" }), "save").body.translations).toEqual({ fr: { title: "Soudeur", description: null } });
  });

  it("questions: options and knockout options one a line, a yes/no knockout as a boolean, numbers as numbers", () => {
    const questions = [
      { key: "a", text: "A?", type: "yesNo", required: true, options: "", knockoutAnswer: "false", knockout: "", maxLength: "", min: "", max: "" },
      { key: "b", text: "B?", type: "multiChoice", required: false, options: "Red\r\n\r\n Blue \r\nGreen", knockoutAnswer: "", knockout: "Green", maxLength: "", min: "", max: "" },
      { key: "c", text: "C?", type: "number", required: false, options: "", knockoutAnswer: "", knockout: "", maxLength: "", min: "0", max: "ten" },
    ];
    const { body, problems } = bodyOf(form({ questions }), "create");
    expect(body.questions).toEqual([
      { key: "a", text: "A?", type: "yesNo", required: true, knockout: false },
      { key: "b", text: "B?", type: "multiChoice", required: false, options: ["Red", "Blue", "Green"], knockout: ["Green"] },
      { key: "c", text: "C?", type: "number", required: false, min: 0 },
    ]);
    expect(problems).toEqual([{ field: "question-3-max", problem: "number" }]);
  });

  it("a saved job in the form, saved again untouched, is the same job: its body names every member as it is", () => {
    const opened = formOfJob(SAVED_JOB, '"7.3.1"');
    expect(opened).toMatchObject({ closeDate: "2026-12-31", closesAt: "2026-12-31T10:00:00Z", salaryAmount: "31.5", aiUsedInSelection: "false", existingVacancy: "", ifMatch: '"7.3.1"' });
    const { body, problems } = bodyOf(opened, "save");
    expect(problems).toEqual([]);
    expect(body).toEqual({
      title: "Welder",
      referenceId: "REF-7",
      status: "active",
      // The day opened, untouched: its time is kept.
      closeDate: "2026-12-31T10:00:00Z",
      confidential: false,
      autoRefresh: true,
      locations: [{ description: "Vancouver, BC" }],
      categories: [{ id: 27 }],
      positionType: { id: 1 },
      salary: { amount: 31.5, maxAmount: null, type: { id: 5 }, plusCommission: false },
      description: "<p>Weld.</p>",
      translations: { fr: { title: "Soudeur", description: "<p>Souder.</p>" } },
      applicantRoutingType: { id: 2 },
      applicationEmail: null,
      applicationUrl: "https://acme.example/apply",
      aiUsedInSelection: false,
      existingVacancy: null,
      questions: [
        { key: "ticket", text: "Do you hold a ticket?", type: "yesNo", required: true, knockout: false },
        { key: "years", text: "Years of experience?", type: "number", required: false, min: 0, max: 50 },
      ],
    });
    // Another day is the day typed (the API's end of that day).
    expect(bodyOf({ ...opened, closeDate: "2027-01-15" }, "save").body.closeDate).toBe("2027-01-15");
  });

  it("a conflict compares what was typed with what is saved, member by member", () => {
    const saved = formOfJob(SAVED_JOB, '"7.4.1"');
    expect(differences({ ...saved, title: "Lead welder", ifMatch: '"7.3.1"', closesAt: "" }, saved)).toEqual(["title"]);
    expect(differences({ ...saved, locations: ["Kelowna"], confidential: true }, saved)).toEqual(["locations", "confidential"]);
  });
});

describe("where the API's answers go (DESIGN 25a)", () => {
  it("each API path beside its field; paths with no field are for the summary", () => {
    const withQuestions = form({
      questions: [
        { ...EMPTY_QUESTION, knockoutAnswer: "true" },
        { ...EMPTY_QUESTION, knockout: "Night" },
      ],
    });
    const cases: [string, string | undefined][] = [
      ["title", "title"],
      ["closeDate", "closeDate"],
      ["locations", "locations"],
      ["locations[1].description", "location-2"],
      ["categories", "categories"],
      ["categories[2].id", "categories"],
      ["positionType.id", "positionType"],
      ["salary", "salary"],
      ["salary.amount", "salaryAmount"],
      ["salary.maxAmount", "salaryMaxAmount"],
      ["salary.type.id", "salaryType"],
      ["translations.fr.title", "frTitle"],
      ["translations.fr.description", "frDescription"],
      ["translations.fr", "french"],
      ["translations.de", "french"],
      ["applicantRoutingType.id", "applicantRoutingType"],
      ["aiUsedInSelection", "aiUsedInSelection"],
      ["questions", "questions"],
      ["questions[1]", "question-2"],
      ["questions[1].options[0]", "question-2-options"],
      ["questions[0].knockout", "question-1-knockoutAnswer"],
      ["questions[1].knockout", "question-2-knockout"],
      ["body", undefined],
      ["publishDate", undefined],
    ];
    for (const [path, field] of cases) expect(fieldOfPath(path, withQuestions), path).toBe(field);
  });

  it("errors are placed beside their fields, in the summary otherwise, and none on a field the form could not read", () => {
    const placed = placeErrors(
      [
        { field: "salary.amount", message: "salary.amount is required when a salary is given." },
        { field: "locations[0].description", message: "Unknown place." },
        { field: "body", message: "Too big." },
      ],
      EMPTY,
      ["salaryAmount"],
    );
    expect([...placed.byField.keys()]).toEqual(["location-1"]);
    expect(placed.elsewhere).toEqual([{ field: "body", message: "Too big." }]);
  });
});

describe("the description editor (DESIGN 25: an editor that writes only the allowed HTML; a plain text area without JavaScript)", () => {
  const scriptTag = `<script src="${EDITOR_SCRIPT_PATH}" defer`;
  const count = (html: string, part: string) => html.split(part).length - 1;

  it("the form's pages load the editor's script once, its words in the person's language, and keep both descriptions as textareas", async () => {
    const employer = await createEmployer();
    for (const lang of ["en", "fr"] as const) {
      const cookie = await signedIn(employer.employerId, `editor-${lang}-${crypto.randomUUID().slice(0, 8)}@example.com`, { lang });
      const created = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: { title: "Welder", status: "draft", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }], description: "<p>Weld.</p>" } });
      const { id } = await created.json<{ id: number }>();
      const unsaved = await call("/employer/jobs", { cookie, form: { title: "" } });
      expect(unsaved.status).toBe(422);
      for (const res of [await call("/employer/jobs/new", { cookie }), await call(`/employer/jobs/${id}`, { cookie }), unsaved]) {
        const html = await res.text();
        expect(count(html, scriptTag)).toBe(1);
        expect(html).toContain(lang === "en" ? 'data-bold="Bold"' : 'data-bold="Gras"');
        expect(html).toMatch(/<textarea id="description" name="description" rows="12" data-rich-text="html"/);
        expect(html).toMatch(/<textarea id="frDescription" name="frDescription" lang="fr" rows="8" data-rich-text="html"/);
        // The console's own files may run there; still nothing inline.
        expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self'(;|$)/);
      }
    }
  });

  it("a page without a description field neither loads it nor lets scripts run", async () => {
    const employer = await createEmployer();
    const cookie = await signedIn(employer.employerId, `editor-${crypto.randomUUID().slice(0, 8)}@example.com`);
    const created = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: { title: "Welder", status: "draft", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }] } });
    const { id } = await created.json<{ id: number }>();
    for (const path of ["/employer", `/employer/jobs/${id}/preview`, `/employer/jobs/${id}/applications`, "/employer/settings"]) {
      const res = await call(path, { cookie });
      expect(await res.text(), path).not.toContain("/assets/editor.");
      expect(res.headers.get("Content-Security-Policy"), path).not.toContain("script-src");
    }
    // The list is at an address the form's create POST shares: no editor on it all the same.
    expect(await (await call("/employer/jobs", { cookie })).text()).not.toContain("/assets/editor.");
  });

  it("its script is served by the static assets at the address the pages name, not by the Worker", async () => {
    const res = await env.ASSETS.fetch(new Request(`${BASE}${EDITOR_SCRIPT_PATH}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    const script = await res.text();
    expect(script).toContain("prosemirror-model");
    expect(script).toContain("textarea[data-rich-text]");
  });
});
