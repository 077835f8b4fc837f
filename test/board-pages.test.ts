import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createBoardDatabase } from "../src/board/database/client";
import { boardSitemapStarts } from "../src/board/database/reads";
import { BASE, createEmployer, request } from "./support/api";
import { settleBoard } from "./support/board";
import { postJob } from "./support/jobs";

// DESIGN 18 and 18a, the job pages: server-rendered HTML in English and French, read from the
// board's own database.

const employer = await createEmployer({ name: "Pages & Co." });
let unique = 0;
/** A page, as a browser asks for it (outside the API and its OpenAPI document), never from the cache. */
const page = (path: string, headers: Record<string, string> = {}) =>
  request(`${BASE}${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`, { undocumented: true, redirect: "manual", headers });
const jsonLdOf = (html: string) => JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]);

const job = await postJob(employer, {
  title: "Senior Accountant",
  status: "active",
  locations: [{ description: "Montréal, QC" }],
  salary: { amount: 65000, maxAmount: 72000.5, type: { id: 1 } },
  positionType: { id: 1 },
  description: "<p>Join our <strong>finance</strong> team.</p>",
  existingVacancy: true,
  translations: { fr: { title: "Comptable principal", description: "<p>Joignez-vous à l'équipe.</p>" } },
  applicantRoutingType: { id: 2 },
  applicationUrl: "https://careers.example.com/apply",
});
await settleBoard();

describe("job pages (DESIGN 18)", () => {
  it("the English page: lang, title, description, canonical, hreflang both ways, Open Graph, the whole job readable", async () => {
    const res = await page(`/jobs/${job.id}-senior-accountant`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(html).toContain("<title>Senior Accountant</title>");
    expect(html).toContain('<meta name="description" content="Senior Accountant — Pages &amp; Co. — Montréal, QC"/>');
    expect(html).toContain(`<link rel="canonical" href="${BASE}/jobs/${job.id}-senior-accountant"/>`);
    expect(html).toContain(`<link rel="alternate" hreflang="fr" href="${BASE}/fr/emplois/${job.id}-comptable-principal"/>`);
    expect(html).toContain('<meta property="og:title" content="Senior Accountant"/>');
    expect(html).toContain("$65,000.00 – $72,000.50 a year");
    expect(html).toContain("<p>Join our <strong>finance</strong> team.</p>");
    expect(html).toContain("This posting is for an existing vacancy.");
    expect(html).toContain('href="https://careers.example.com/apply" rel="nofollow noopener"');
    expect(html).toMatch(/November \d+, 2026|December \d+, 2026|January \d+, 2027/);
  });

  it("the French page: French interface, dates and money, and the job's French version", async () => {
    const res = await page(`/fr/emplois/${job.id}-comptable-principal`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("<title>Comptable principal</title>");
    expect(html).toContain("<p>Joignez-vous à l'équipe.</p>");
    expect(html).toMatch(/65\s000,00\s\$ – 72\s000,50\s\$ par année/);
    expect(html).toContain("Temps plein");
    expect(html).toContain("Postuler sur le site de l&#39;employeur");
    expect(html).toMatch(/\d+ (novembre|décembre|janvier) 202[67]/);
    expect(html).toContain(`<link rel="alternate" hreflang="en" href="${BASE}/jobs/${job.id}-senior-accountant"/>`);
  });

  it("its JobPosting is in the page, with identifier and url", async () => {
    const ld = jsonLdOf(await (await page(`/jobs/${job.id}-senior-accountant`)).text());
    expect(ld).toMatchObject({
      "@type": "JobPosting",
      title: "Senior Accountant",
      identifier: { "@type": "PropertyValue", name: "id", value: job.id },
      url: `${BASE}/jobs/${job.id}-senior-accountant`,
      hiringOrganization: { name: "Pages & Co." },
    });
  });

  it("no value can close the JSON-LD script early: <, > and & are written as \\u escapes", async () => {
    const hostile = await postJob(employer, { title: "Clerk </script><script>alert(1)</script> <!--<script>", status: "active" });
    await settleBoard();
    const first = await page(`/jobs/${hostile.id}`);
    const html = await (await page(new URL(first.headers.get("Location")!).pathname)).text();
    const block = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1];
    expect(block).not.toMatch(/[<>]/);
    expect(block).toContain("\\u003c/script\\u003e");
    expect(jsonLdOf(html).title).toBe("Clerk </script><script>alert(1)</script> <!--<script>");
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("/jobs/{id} and a wrong slug answer 301 to the canonical address", async () => {
    for (const path of [`/jobs/${job.id}`, `/jobs/${job.id}-wrong-slug`]) {
      const res = await page(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get("Location"), path).toBe(`${BASE}/jobs/${job.id}-senior-accountant`);
    }
    expect((await page(`/fr/emplois/${job.id}-senior-accountant`)).headers.get("Location")).toBe(`${BASE}/fr/emplois/${job.id}-comptable-principal`);
  });

  it("a job that left the board answers 410 with no JobPosting; one never on it (a draft, an unknown id) 404", async () => {
    const leaving = await postJob(employer, { title: "Short-lived", status: "active" });
    await settleBoard();
    expect((await page(`/jobs/${leaving.id}-short-lived`)).status).toBe(200);
    await request(`/jobs/${leaving.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } });
    await settleBoard();
    const gone = await page(`/jobs/${leaving.id}-short-lived`);
    expect(gone.status).toBe(410);
    const html = await gone.text();
    expect(html).toContain("This job is no longer open");
    expect(html).not.toContain("application/ld+json");
    const deleted = await postJob(employer, { title: "Deleted", status: "active" });
    await settleBoard();
    await request(`/jobs/${deleted.id}`, { method: "DELETE", apiKey: employer.apiKey });
    await settleBoard();
    expect((await page(`/fr/emplois/${deleted.id}`)).status).toBe(410);
    const draft = await postJob(employer, { title: "Draft" });
    await settleBoard();
    for (const path of [`/jobs/${draft.id}`, "/jobs/999999999", "/jobs/abc", "/fr/emplois/0-x"]) {
      expect((await page(path)).status, path).toBe(404);
    }
  });

  it("security headers: a CSP without scripts, frame-ancestors 'none', a Referrer-Policy; cached with an ETag and 304", async () => {
    const path = `/jobs/${job.id}-senior-accountant?cache=${Date.now()}`;
    const res = await request(`${BASE}${path}`, { undocumented: true });
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("Content-Security-Policy")).not.toContain("unsafe-inline");
    expect(res.headers.get("Content-Security-Policy")).not.toContain("script-src");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    const etag = res.headers.get("ETag")!;
    expect(etag).toBeTruthy();
    expect((await request(`${BASE}${path}`, { undocumented: true, headers: { "If-None-Match": etag } })).status).toBe(304);
  });

  it("the one stylesheet is served as CSS, cached for a year at an address naming its content, well under the page budget", async () => {
    const html = await (await page(`/jobs/${job.id}-senior-accountant`)).text();
    const stylesheet = /<link rel="stylesheet" href="(\/site\.[0-9a-f]{8}\.css)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    const res = await request(`${BASE}${stylesheet}`, { undocumented: true });
    expect(res.headers.get("Content-Type")).toMatch(/^text\/css/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const css = await res.text();
    expect(css.length + html.length).toBeLessThan(60 * 1024);
  });

  it("the site's icon is linked from every page and served as SVG, so a browser's request for one finds it", async () => {
    const html = await (await page("/")).text();
    const icon = /<link rel="icon" href="(\/icon\.[0-9a-f]{8}\.svg)" type="image\/svg\+xml"/.exec(html)?.[1];
    expect(icon).toBeDefined();
    const res = await request(`${BASE}${icon}`, { undocumented: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(await res.text()).toMatch(/^<svg /);
  });
});

describe("search pages (DESIGN 18, 18a)", () => {
  const idsOn = (html: string) => [...html.matchAll(/<h3><a href="\/(?:fr\/emplois|jobs)\/(\d+)-/g)].map((m) => Number(m[1]));

  it("the form: every field labelled, the query kept in the address and in the fields", async () => {
    const res = await page("/?q=senior+accountant&province=QC");
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const field of ["q", "place", "radiusKm", "province", "category", "positionType", "salaryMin"]) {
      expect(html, field).toContain(`<label for="${field}">`);
      expect(html, field).toContain(`id="${field}"`);
    }
    expect(html).toContain('<form method="get" role="search">');
    expect(html).toContain('value="senior accountant"');
    expect(html).toContain('<option value="QC" selected="">Quebec</option>');
    expect(idsOn(html)).toContain(job.id);
    expect(html).toContain(`<a href="/jobs/${job.id}-senior-accountant">Senior Accountant</a>`);
  });

  it("the first screen (issue 36): keywords and place in one row with the button; the other filters folded in a <details>, open when one of them is set or wrong", async () => {
    const html = await (await page("/?q=accountant")).text();
    const row = /<div class="search-row">(.*?)<\/div>/s.exec(html)![1];
    for (const field of ["q", "place"]) expect(row, field).toContain(`id="${field}"`);
    expect(row).toContain('<button type="submit">Search</button>');
    const folded = /<details class="filters"( open="")?>(.*?)<\/details>/s.exec(html)!;
    expect(folded[1]).toBeUndefined();
    expect(folded[2]).toContain("<summary>More filters</summary>");
    for (const field of ["radiusKm", "province", "category", "positionType", "salaryMin"]) {
      expect(folded[2], field).toContain(`<label for="${field}">`);
      expect(row, field).not.toContain(`id="${field}"`);
    }
    // Inside the form (no script needed: the fields are sent whether the <details> is open or not), before the results.
    expect(html.indexOf("<details")).toBeGreaterThan(html.indexOf('<form method="get" role="search">'));
    expect(html.indexOf("</details>")).toBeLessThan(html.indexOf("</form>"));
    expect(html.indexOf("</form>")).toBeLessThan(html.indexOf('id="results"'));
    for (const query of ["province=QC", "place=Laval&radiusKm=25", "category=1", "positionType=1", "salaryMin=lots"]) {
      expect(await (await page(`/?${query}`)).text(), query).toContain('<details class="filters" open="">');
    }
    expect(await (await page("/?q=accountant&place=Laval")).text()).toContain('<details class="filters">');
    expect(await (await page("/fr/?province=QC&category=1")).text()).toContain("<summary>Plus de filtres (2 choisis)</summary>");
  });

  it("by word: only matching jobs; none is said plainly", async () => {
    expect(idsOn(await (await page("/?q=accountant")).text())).toContain(job.id);
    expect(await (await page("/?q=zzqqxxnothing")).text()).toContain("No job matches your search.");
  });

  it("by place and radius: a city name or its description, 50 km by default, with the distance", async () => {
    const near = await (await page("/?place=Montr%C3%A9al%2C+QC&radiusKm=25")).text();
    expect(idsOn(near)).toContain(job.id);
    expect(near).toMatch(/Montréal, QC \(\d+(\.\d)? km\)/);
    expect(idsOn(await (await page("/?place=Laval")).text())).toContain(job.id);
    expect(idsOn(await (await page("/?place=Vancouver&radiusKm=100")).text())).not.toContain(job.id);
  });

  it("a place it does not know, or a bad number, is a 400 with the form and each message tied to its field", async () => {
    const res = await page("/?place=Nowhereville+Zzz&radiusKm=900&salaryMin=lots");
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const field of ["place", "radiusKm", "salaryMin"]) {
      expect(html, field).toContain(`aria-invalid="true"`);
      expect(html, field).toMatch(new RegExp(`id="${field}"[^>]*aria-describedby="[^"]*${field}-error`));
      expect(html, field).toContain(`id="${field}-error"`);
    }
    expect(html).toContain('value="Nowhereville Zzz"');
  });

  it("results newest first, 20 a page; “More jobs” carries the cursor and the query", async () => {
    const word = `zpage${Date.now().toString(36)}`;
    const created: number[] = [];
    for (let i = 0; i < 21; i++) created.push((await postJob(employer, { title: `Clerk ${word} ${i}`, status: "active" })).id);
    await settleBoard();
    const first = await (await page(`/?q=${word}`)).text();
    expect(idsOn(first)).toEqual(created.slice(1).reverse());
    const more = /<a href="([^"]+)" rel="next">More jobs<\/a>/.exec(first)![1].replaceAll("&amp;", "&");
    expect(more).toContain(`q=${word}`);
    expect(more).toContain("cursor=");
    const second = await (await page(more)).text();
    expect(idsOn(second)).toEqual([created[0]]);
    expect(second).not.toContain('rel="next"');
  });

  it("the French search page: French labels, French job addresses", async () => {
    const res = await page("/fr/?q=accountant");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Trouver un emploi au Canada");
    expect(html).toContain("Toutes les provinces");
    expect(html).toContain(`/fr/emplois/${job.id}-`);
    expect((await page("/fr")).status).toBe(301);
  });
});

describe("sitemap and robots.txt (DESIGN 18)", () => {
  it("robots.txt names the sitemap", async () => {
    const res = await request(`${BASE}/robots.txt`, { undocumented: true });
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await res.text()).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });

  it("the sitemap lists every board job's English and French page with lastmod; no job off the board", async () => {
    const draft = await postJob(employer, { title: "Not listed" });
    await settleBoard();
    const res = await request(`${BASE}/sitemap.xml?t=${Date.now()}`, { undocumented: true });
    expect(res.headers.get("Content-Type")).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toMatch(new RegExp(`<url><loc>${BASE}/jobs/${job.id}-senior-accountant</loc><lastmod>\\d{4}-\\d{2}-\\d{2}</lastmod></url>`));
    expect(xml).toContain(`<loc>${BASE}/fr/emplois/${job.id}-comptable-principal</loc>`);
    expect(xml).not.toContain(`/jobs/${draft.id}-`);
  });

  it("the sitemap lists only jobs open when it is served: a job past its closeDate is gone at once, not at the next cron (DESIGN 18a)", async () => {
    const closing = await postJob(employer, { title: "Closing Clerk", status: "active" });
    await settleBoard();
    const sitemap = async () => (await request(`${BASE}/sitemap.xml?t=${Date.now()}-${Math.random()}`, { undocumented: true })).text();
    expect(await sitemap()).toContain(`/jobs/${closing.id}-closing-clerk`);
    // Its closeDate passed a second ago; the cron has not archived it yet, so the board still holds its row.
    await env.BOARD_DB.prepare("UPDATE board_jobs SET close_date = ? WHERE job_id = ?").bind(Math.floor(Date.now() / 1000) - 1, closing.id).run();
    expect(await sitemap()).not.toContain(`/jobs/${closing.id}-`);
    expect(await (await request(`${BASE}/sitemap-${closing.id}.xml?t=${Date.now()}`, { undocumented: true })).text()).not.toContain(`/jobs/${closing.id}-`);
  });

  it("a sitemap file is a range of job ids: sitemap-{id}.xml lists the board's jobs from that id on, never reading the ones before it", async () => {
    await settleBoard();
    const { results } = await env.BOARD_DB.prepare("SELECT job_id AS id FROM board_jobs WHERE close_date > unixepoch() ORDER BY job_id").all<{ id: number }>();
    const ids = results.map((row) => row.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const listed = async (path: string) =>
      [...(await (await request(`${BASE}${path}`, { undocumented: true })).text()).matchAll(/<loc>[^<]*\/jobs\/(\d+)-[^<]*<\/loc>/g)].map((m) => Number(m[1]));
    expect(await listed(`/sitemap-${ids[1]}.xml`)).toEqual(ids.slice(1));
    expect(await listed(`/sitemap-${ids.at(-1)! + 1}.xml`)).toEqual([]);
    expect((await request(`${BASE}/sitemap-2147483648.xml`, { undocumented: true })).status).toBe(404);
    // The index's files start at every n-th job by id (here every 2nd, as it does every 25 000th).
    const { results: all } = await env.BOARD_DB.prepare("SELECT job_id AS id FROM board_jobs ORDER BY job_id").all<{ id: number }>();
    expect(await boardSitemapStarts(createBoardDatabase(env.BOARD_DB), 2)).toEqual(all.map((row) => row.id).filter((_, i) => i % 2 === 0));
  });

  it("past 50 000 addresses the sitemap is an index of files, each named by the first job id of its range", async () => {
    const { sitemapIndexXml } = await import("../src/pages/sitemap");
    const xml = sitemapIndexXml(BASE, [1, 25_003, 50_017]);
    expect(xml).toContain("<sitemapindex");
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([1, 25_003, 50_017].map((n) => `${BASE}/sitemap-${n}.xml`));
  });
});

const emailJob = await postJob(employer, {
  title: "Payroll Clerk",
  status: "active",
  applicantRoutingType: { id: 1 },
  applicationEmail: "hr@pages.example",
  questions: [
    { key: "permit", text: "Are you legally entitled to work in Canada?", type: "yesNo", required: true },
    { key: "shift", text: "Which shift?", type: "singleChoice", options: ["Day", "Night"] },
  ],
});
await settleBoard();
const path = `/jobs/${emailJob.id}-payroll-clerk`;
describe("the apply form on a job page (DESIGN 18)", () => {
  let address = 0;
  const post = (form: FormData, at = path) =>
    request(`${BASE}${at}`, { method: "POST", body: form, redirect: "manual", undocumented: true, headers: { "CF-Connecting-IP": `10.6.0.${++address}` } });

  it("the page shows the form: multipart to itself, every field labelled, the screening questions", async () => {
    const html = await (await page(path)).text();
    expect(html).toContain(`<form method="post" action="${path}" enctype="multipart/form-data">`);
    for (const id of ["apply-name", "apply-email", "apply-phone", "apply-coverLetter", "apply-resume"]) expect(html, id).toMatch(new RegExp(`<label for="${id}">`));
    expect(html).toContain("<legend>Are you legally entitled to work in Canada? (required)</legend>");
    expect(html).toContain('name="answers[shift]" value="Night"');
    expect(html).toContain('accept=".pdf,.docx,.txt');
  });

  it("a good application with a PDF: 303 to the confirmation page; the employer has it with its answers", async () => {
    const form = new FormData();
    form.set("name", "Page Applicant");
    form.set("email", "page@example.com");
    form.set("answers[permit]", "true");
    form.set("answers[shift]", "Day");
    form.set("language", "en");
    form.set("resume", new File([new TextEncoder().encode("%PDF-1.7\n%%EOF\n")], "cv.pdf", { type: "application/pdf" }));
    const res = await post(form);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${path}/sent`);
    const sent = await request(`${BASE}${path}/sent`, { undocumented: true });
    expect(sent.status).toBe(200);
    expect(sent.headers.get("Cache-Control")).toBe("no-store");
    expect(await sent.text()).toContain("Application sent");
    const list = await (await request(`/jobs/${emailJob.id}/applications`, { apiKey: employer.apiKey })).json<any>();
    expect(list.data[0]).toMatchObject({ name: "Page Applicant", answers: { permit: true, shift: "Day" }, resume: { filename: "cv.pdf" } });
  });

  it("errors: the form again with the status the API answers, values kept, each message tied to its field", async () => {
    const form = new FormData();
    form.set("name", "Kept Name");
    form.set("email", "not-an-email");
    form.set("answers[shift]", "Day");
    const res = await post(form);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="Kept Name"');
    expect(html).toMatch(/id="apply-email"[^>]*aria-invalid="true"[^>]*aria-describedby="apply-email-error"/);
    expect(html).toContain('id="apply-email-error"');
    expect(html).toMatch(/<fieldset id="apply-answers-permit" aria-invalid="true" aria-describedby="apply-answers-permit-error">/);
    expect(html).toMatch(/name="answers\[shift\]" value="Day" checked=""/);
  });

  it("in French: French form, French confirmation, and the French page's address", async () => {
    const frPath = `/fr/emplois/${emailJob.id}-payroll-clerk`;
    expect(await (await page(frPath)).text()).toContain("Envoyer ma candidature");
    const form = new FormData();
    form.set("name", "Candidate");
    form.set("email", "candidate@example.com");
    form.set("answers[permit]", "false");
    form.set("language", "fr");
    const res = await post(form, frPath);
    expect(res.status).toBe(303);
    expect(await (await request(`${BASE}${frPath}/sent`, { undocumented: true })).text()).toContain("Candidature envoyée");
  });
});

describe("report a job, and the fraud policy (DESIGN 18, 18a)", () => {
  it("every job page links to its report form; the report is stored for the operator and answered with 303", async () => {
    const jobPage = await (await page(`/jobs/${job.id}-senior-accountant`)).text();
    expect(jobPage).toContain(`<a href="/jobs/${job.id}-senior-accountant/report" rel="nofollow">Report this job</a>`);
    const formPage = await request(`${BASE}/jobs/${job.id}-senior-accountant/report`, { undocumented: true });
    const html = await formPage.text();
    expect(html).toContain('<label for="report-reason">');
    expect(html).toContain('<option value="fraud">Fraud or scam</option>');
    const form = new FormData();
    form.set("reason", "fraud");
    form.set("details", "Asks for a deposit before the interview.");
    form.set("email", "");
    const res = await request(`${BASE}/jobs/${job.id}-senior-accountant/report`, { method: "POST", body: form, redirect: "manual", undocumented: true });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/jobs/${job.id}-senior-accountant/report?sent`);
    expect(await (await request(`${BASE}/jobs/${job.id}-senior-accountant/report?sent`, { undocumented: true })).text()).toContain("your report was received");
    const { env } = await import("cloudflare:workers");
    const stored = await env.DB.prepare("SELECT reason, details, email FROM job_reports WHERE job_id = ?").bind(job.id).first();
    expect(stored).toEqual({ reason: "fraud", details: "Asks for a deposit before the interview.", email: null });
  });

  it("a bad report is a 400 with the form, its values kept and each message tied to its field", async () => {
    const form = new FormData();
    form.set("reason", "boring");
    form.set("details", "Kept details");
    form.set("email", "not-an-email");
    const res = await request(`${BASE}/fr/emplois/${job.id}-comptable-principal/report`, { method: "POST", body: form, undocumented: true });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toMatch(/id="report-reason"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/id="report-email"[^>]*aria-invalid="true"[^>]*aria-describedby="report-email-error"/);
    expect(html).toContain("Kept details");
  });

  it("the fraud policy, in English and French, linked from every page", async () => {
    const en = await (await page("/fraud-policy")).text();
    expect(en).toContain("<h1>Our policy on fraudulent job postings</h1>");
    expect(en).toContain(`<link rel="alternate" hreflang="fr" href="${BASE}/fr/politique-fraude"/>`);
    const fr = await (await page("/fr/politique-fraude")).text();
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain("Centre antifraude du Canada");
    expect(await (await page("/")).text()).toContain('<a href="/fraud-policy">Fraudulent postings</a>');
  });
});

describe("Turnstile on the apply form (DESIGN 18)", () => {
  it("with a site key, the form shows the widget and the CSP lets its script and frame in; without, neither", async () => {
    const { env } = await import("cloudflare:workers");
    const worker = (await import("../src/index")).default;
    const path = `/jobs/${emailJob.id}-payroll-clerk?turnstile=${Date.now()}`;
    const res = await worker.fetch(new Request(`${BASE}${path}`), { ...env, TURNSTILE_SITE_KEY: "1x00000000000000000000AA" }, { waitUntil: () => {} } as unknown as ExecutionContext);
    const html = await res.text();
    expect(html).toContain('<div class="cf-turnstile" data-sitekey="1x00000000000000000000AA" data-language="en"></div>');
    expect(html).toContain('<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"');
    const policy = res.headers.get("Content-Security-Policy")!;
    expect(policy).toContain("script-src https://challenges.cloudflare.com");
    expect(policy).toContain("connect-src 'self' https://challenges.cloudflare.com");
    expect(policy.match(/connect-src/g)).toHaveLength(1);
    expect(res.headers.get("Content-Security-Policy")).not.toContain("unsafe-inline");
    const plain = await (await page(`/jobs/${emailJob.id}-payroll-clerk`)).text();
    expect(plain).not.toContain("cf-turnstile");
  });
});
