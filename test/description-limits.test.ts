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

  it("plain text of ~830 KB (1 000 000 bytes once cleaned) is a handful of events, not one per character", async () => {
    const before = cleanerWork.events;
    // 19 characters, 23 once `&` is escaped.
    const input = "Plain text & more. ".repeat(Math.floor(1_000_000 / 23));
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

// A `<` followed by anything but a letter, `/`, `!` or `?` starts no tag in HTML5: it is text.
// HTMLRewriter hands each one to JavaScript as a text chunk of its own, so they must cost no
// event, and a count made before the rewriter decides every refusal (never a 500).
describe("stray `<` are text: accepted and escaped, at any number, never a 500", () => {
  it("574 KB of plain text with 41 000 stray `<` (no tags) is accepted, each `<` escaped", async () => {
    const description = "if a < b then ".repeat(41_000);
    expect(description.length).toBe(574_000);
    const res = await post(description);
    expect(res.status).toBe(201);
    expect(await descriptionOf(res)).toBe(description.replaceAll("<", "&lt;"));
  });

  // What an HTML5 tokeniser makes of each: text (escaped), or a bogus comment running to the end.
  const VARIANTS: [unit: string, cleaned: (input: string) => string | null][] = [
    ["< a", (s) => s.replaceAll("<", "&lt;")],
    ["<1", (s) => s.replaceAll("<", "&lt;")],
    ["<<<<", (s) => s.replaceAll("<", "&lt;")],
    ["a <= b & c > d ", (s) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")],
    ["</ 3", () => null],
    ["<!", () => null],
    ["<?", () => null],
  ];
  it.each(VARIANTS)("%j repeated to 1 MiB: never a 500; as much as fits 1 000 000 bytes once cleaned is accepted, escaped, in a handful of events", async (unit, cleaned) => {
    const atMost = (bytes: number) => unit.repeat(Math.floor(bytes / unit.length));
    const mebibyte = atMost(MiB - 1_000);
    const fits = cleaned(mebibyte) === null || cleaned(mebibyte)!.length <= 1_000_000 ? mebibyte : atMost((1_000_000 * unit.length) / cleaned(unit)!.length);
    const before = cleanerWork.events;
    const output = await cleanDescription(fits);
    expect(cleanerWork.events - before).toBeLessThan(100);
    expect(output || null).toBe(cleaned(fits));
    const res = await post(fits);
    expect(res.status).toBe(201);
    expect(await descriptionOf(res)).toBe(cleaned(fits));
    if (fits !== mebibyte) await expectRefused(mebibyte, /more than 1,000,000 bytes once cleaned/);
  });

  it("`</>` (an end tag without a name, which HTML drops) counts as a tag: 20 000 accepted, 1 MiB of them a 400, not a 500", async () => {
    const accepted = await post("x</>".repeat(MAX_TAGS));
    expect(accepted.status).toBe(201);
    expect(await descriptionOf(accepted)).toBe("x".repeat(MAX_TAGS));
    await expectRefused("x</>".repeat(MAX_TAGS + 1), /more than 20,000 tags/);
    await expectRefused("</>".repeat(Math.floor((MiB - 1_000) / 3)), /more than 20,000 tags/);
  });

  // Raw text is HTML's name for the content of <style>, <script>, <textarea>…: in it a `<` starts
  // no tag (only the element's own end tag counts), but HTMLRewriter still splits the text there.
  it.each(["style", "script", "textarea", "title", "xmp", "noscript"])(
    "1 MiB of `<b>` inside <%s> is no tag: accepted (dropped with its element) in a handful of events",
    async (name) => {
      // In a script, after `<!--` too, where `<script` and `</script` mean more than elsewhere.
      const open = name === "script" ? "<script><!--" : `<${name}>`;
      const input = `<p>before</p>${open}${"<b>".repeat(Math.floor((MiB - 1_000) / 3))}</${name}><p>after</p>`;
      const before = cleanerWork.events;
      expect(await cleanDescription(input)).toBe("<p>before</p><p>after</p>");
      expect(cleanerWork.events - before).toBeLessThan(100);
      const res = await post(input);
      expect(res.status).toBe(201);
      expect(await descriptionOf(res)).toBe("<p>before</p><p>after</p>");
    },
  );

  it("stray `<` between 20 000 tags: accepted, one pass, no event for any `<`", async () => {
    const input = "<i>a < b < c < d < e</i>".repeat(MAX_TAGS / 2);
    const before = { ...cleanerWork };
    expect(await cleanDescription(input)).toBe("<i>a &lt; b &lt; c &lt; d &lt; e</i>".repeat(MAX_TAGS / 2));
    expect(cleanerWork.passes - before.passes).toBe(1);
    // A start tag, its end tag and the text between them.
    expect(cleanerWork.events - before.events).toBeLessThanOrEqual(3 * MAX_TAGS + 2);
  });
});

// DESIGN 6b: D1 caps a value at 2 MB and the board repeats the description, so what is stored is
// bounded: a cleaned description of more than 1 000 000 bytes (UTF-8) is a 400 on description.
describe("a description whose cleaned form exceeds 1 000 000 bytes is a 400 on description", () => {
  const MAX_CLEANED_BYTES = 1_000_000;

  it("exactly 1 000 000 bytes once cleaned are accepted; one byte more is a 400", async () => {
    const ascii = await post("x".repeat(MAX_CLEANED_BYTES));
    expect(ascii.status).toBe(201);
    expect((await descriptionOf(ascii)).length).toBe(MAX_CLEANED_BYTES);
    await expectRefused("x".repeat(MAX_CLEANED_BYTES + 1), /more than 1,000,000 bytes/);
    // Counted in UTF-8: é is two bytes.
    expect((await post("é".repeat(MAX_CLEANED_BYTES / 2))).status).toBe(201);
    await expectRefused("é".repeat(MAX_CLEANED_BYTES / 2) + "x", /more than 1,000,000 bytes/);
  });

  it("escaping counts: 200 000 `&` (stored as &amp;) are accepted, 200 001 and 300 000 are a 400", async () => {
    expect((await post("&".repeat(MAX_CLEANED_BYTES / 5))).status).toBe(201);
    await expectRefused("&".repeat(MAX_CLEANED_BYTES / 5 + 1), /more than 1,000,000 bytes/);
    await expectRefused("&".repeat(300_000), /more than 1,000,000 bytes/);
  });

  it("PUT and a batch entry are refused the same way", async () => {
    const job = (await (await post("short")).json()) as { id: number };
    const put = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { description: "&".repeat(300_000) } });
    expect(put.status).toBe(400);
    expect((await problemOf(put)).errors).toEqual([{ field: "description", message: expect.stringMatching(/more than 1,000,000 bytes/) }]);
    const batch = await request("/jobs/batch", {
      method: "POST",
      apiKey: employer.apiKey,
      json: { upsert: [{ referenceId: "BIG-AMP", ...jobBody({ description: "&".repeat(300_000) }) }] },
    });
    expect(batch.status).toBe(200);
    const [result] = ((await batch.json()) as { results: { status: number; errors: unknown[] }[] }).results;
    expect(result.status).toBe(400);
    expect(result.errors).toEqual([{ field: "description", message: expect.stringMatching(/more than 1,000,000 bytes/) }]);
  });

  it("a 900 KB description of ordinary rich text is accepted as it is", async () => {
    const block =
      "<p>We are hiring a <strong>senior accountant</strong> to join our finance team in Toronto and own the monthly close process end to end, " +
      "working closely with the controller, the auditors and every department head on budgets, forecasts and the year-end statements.</p>";
    const description = block.repeat(Math.floor(900_000 / block.length));
    expect(description.length).toBeGreaterThan(890_000);
    const res = await post(description);
    expect(res.status).toBe(201);
    expect(await descriptionOf(res)).toBe(description);
  });
});
