import { beforeAll, describe, expect, it } from "vitest";
import { cleanDescription, cleanerWork } from "../src/description/clean";
import { countMarkup, MAX_OPEN_ELEMENTS, MAX_TAGS } from "../src/description/markup";
import { ValidationError } from "../src/http/problem";
import { createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { htmlViolations } from "./support/html-invariants";
import { jobBody } from "./support/jobs";

// DESIGN.md section 6a: cleaning is linear in the input and the one refusal is more than 20 000
// tags (comments count as tags) or more than 10 000 elements open at once, decided by a count
// before the rewriter runs. Work is counted here (rewriter passes, events handed to JavaScript),
// never timed.

const MiB = 1024 * 1024;

let employer: TestEmployer;
beforeAll(async () => {
  employer = await createEmployer();
});

const post = (description: string) =>
  request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody({ description }) });

async function expectRefused(description: string, message: RegExp): Promise<void> {
  const res = await post(description);
  expect(res.status).toBe(400);
  const problem = await problemOf(res);
  expect(problem.errors).toEqual([{ field: "description", message: expect.stringMatching(message) }]);
}

const descriptionOf = async (res: Response) => ((await res.json()) as { description: string }).description;

/** `unit` repeated until it makes `tags` tags (each unit holding `perUnit`). */
const repeatTo = (unit: string, perUnit: number, tags: number) => unit.repeat(tags / perUnit);

describe("the refusal at its edges, through POST /jobs", () => {
  it("exactly 20 000 tags are accepted, and so is the cleaned description sent back", async () => {
    const res = await post(repeatTo("<i>x</i>", 2, MAX_TAGS));
    expect(res.status).toBe(201);
    expect(await descriptionOf(res)).toBe("<i>x</i>".repeat(MAX_TAGS / 2));
    const implied = await post("<ul><li>x<li>y</ul>".repeat(3_333));
    expect(implied.status).toBe(201);
    expect((await post(await descriptionOf(implied))).status).toBe(201);
  });

  it("20 001 tags: 400 on description saying there are more than 20 000 tags", async () => {
    await expectRefused(repeatTo("<i>x</i>", 2, MAX_TAGS) + "<br>", /more than 20,000 tags/);
    // Written in full, `<li>x<li>y` is `<li>x</li><li>y</li>`: end tags left implied count.
    await expectRefused("<ul><li>x<li>y</ul>".repeat(3_334), /more than 20,000 tags/);
  });

  it("comments count as tags: 20 000 accepted, 20 001 refused", async () => {
    expect((await post("<!-- c -->x".repeat(MAX_TAGS))).status).toBe(201);
    await expectRefused("<!-- c -->x".repeat(MAX_TAGS + 1), /more than 20,000 tags/);
  });

  it("10 000 elements open at once are accepted", async () => {
    const res = await post("<div>".repeat(MAX_OPEN_ELEMENTS) + "deep");
    expect(res.status).toBe(201);
  });

  it("10 001 elements open at once: 400 on description saying so", async () => {
    await expectRefused("<div>".repeat(MAX_OPEN_ELEMENTS + 1) + "deep", /more than 10,000 elements open at once/);
    await expectRefused("<p>x".repeat(MAX_OPEN_ELEMENTS + 1), /more than 10,000 elements open at once/);
  });

  it("a 1 MiB description of `x<br>` is refused before the rewriter runs", async () => {
    const html = "x<br>".repeat(Math.floor((MiB - 1000) / 5));
    const before = cleanerWork.passes;
    const error = await cleanDescription(html).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(cleanerWork.passes).toBe(before);
    await expectRefused(html, /more than 20,000 tags/);
  });

  it("realistic rich text of ~500 KB (a tag every ~25 characters, under 20 000 tags) is accepted as it is", async () => {
    const block =
      "<p>We are hiring a <strong>senior accountant</strong> to join our finance team in Toronto and own the monthly close process end to end.</p>" +
      "<ul><li>Reconcile every account each month with care and precision</li><li>Prepare the quarterly reports for the board and auditors</li></ul>";
    const description = block.repeat(Math.floor(500_000 / block.length));
    expect(countMarkup(description).tags).toBeLessThan(MAX_TAGS);
    const res = await post(description);
    expect(res.status).toBe(201);
    expect(await descriptionOf(res)).toBe(description);
  });
});

// Every hostile shape, as many units as fit under 20 000 tags, and its exact cleaned form.
const SHAPES: [name: string, unit: string, tagsPerUnit: number, cleanedUnit: string][] = [
  ["x<br>", "x<br>", 1, "x<br>"],
  ["<i>x</i>", "<i>x</i>", 2, "<i>x</i>"],
  ["<b><i>x</i></b>", "<b><i>x</i></b>", 4, "<b><i>x</i></b>"],
  ["<ul><li>x<li>y</ul> (implied end tags count)", "<ul><li>x<li>y</ul>", 6, "<ul><li>x</li><li>y</li></ul>"],
  ["comments", "<!-- c -->x", 1, "x"],
  ["<script> and <style> pairs", "<script>s</script><style>t</style>x", 4, "x"],
  ["attributes on div", '<div class="c" style="color:red" onclick="x()">x</div>', 2, "<div>x</div>"],
  ["<span> to unwrap", "<span>x</span>", 2, "x"],
  ["unclosed <p> (closed by the writer)", "<p>x", 2, "<p>x</p>"],
  ["entities", "&amp;&lt;&#x20AC;&eacute;& x<br>", 1, "&amp;&lt;&#x20AC;&eacute;&amp; x<br>"],
  ["links", '<a href="https://example.com/x" target="_blank">x</a>', 2, '<a href="https://example.com/x" target="_blank">x</a>'],
];

describe("large inputs of every hostile shape clean correctly, in one pass, with work in proportion to the tags", () => {
  it.each(SHAPES)("%s", async (_name, unit, tagsPerUnit, cleanedUnit) => {
    const units = Math.floor(MAX_TAGS / tagsPerUnit / 2) * 2;
    const input = unit.repeat(units);
    const before = { ...cleanerWork };
    const output = await cleanDescription(input);
    const passes = cleanerWork.passes - before.passes;
    const events = cleanerWork.events - before.events;

    expect(output).toBe(cleanedUnit.repeat(units));
    expect(htmlViolations(output)).toEqual([]);
    expect(await cleanDescription(output)).toBe(output);
    expect(passes).toBe(1);
    // An event per tag, one or two per text node: at most 3 per tag.
    expect(events).toBeLessThanOrEqual(3 * units * tagsPerUnit + 2);

    // Half the input: half the events (linear, not worse).
    const half = cleanerWork.events;
    await cleanDescription(unit.repeat(units / 2));
    expect(Math.abs(2 * (cleanerWork.events - half) - events)).toBeLessThanOrEqual(4);
  });

  it("a 1 MiB plain-text description is a handful of events, not one per character", async () => {
    const before = cleanerWork.events;
    const input = "Plain text & more. ".repeat(Math.floor(MiB / 19));
    expect(await cleanDescription(input)).toBe(input.replaceAll("& ", "&amp; "));
    expect(cleanerWork.events - before).toBeLessThan(100);
  });
});

describe("raw-text elements in <select> or after <frameset>: read around them, the text untouched", () => {
  it("an attribute value naming select keeps its text while the select itself goes", async () => {
    const input = '<a href="https://e.example/?x=<select>">y</a><select><style>z</style></select>after';
    expect(await cleanDescription(input)).toBe('<a href="https://e.example/?x=%3Cselect%3E">y</a>after');
  });

  it("after a frameset the rest is still cleaned", async () => {
    expect(await cleanDescription("<b>a</b><frameset><style>x</style></frameset><i>b</i>")).toBe("<b>a</b><i>b</i>");
  });
});
