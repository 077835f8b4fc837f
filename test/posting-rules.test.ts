import { describe, expect, it } from "vitest";
import {
  bandsBreaking,
  checkPostingRules,
  EMPLOYER_BANDS,
  mentionsCanadianExperience,
  POSTING_RULES,
  type PostingEmployer,
  type PostingFacts,
} from "../src/postingrules";

// DESIGN 19 and 19a, as pure functions: each rule met, broken and not applicable.

const DAY = (text: string) => Date.parse(`${text}T12:00:00Z`) / 1000;
const units = (amount: number) => amount * 10_000;
const YEARLY = 1;
const MONTHLY = 2;
const WEEKLY = 3;
const DAILY = 4;
const HOURLY = 5;

const job = (overrides: Partial<PostingFacts> = {}): PostingFacts => ({
  publishDate: DAY("2026-11-24"),
  provinces: ["ON"],
  salary: { amount: units(60_000), maxAmount: units(70_000), typeId: YEARLY },
  aiUsedInSelection: false,
  existingVacancy: true,
  hasFrench: false,
  canadianExperienceIn: [],
  ...overrides,
});
const large: PostingEmployer = { ontarioEmployees: null, federallyRegulated: false };
const statusOf = (rule: string, facts: PostingFacts, employer: PostingEmployer = large) =>
  checkPostingRules(facts, employer).find((outcome) => outcome.rule === rule)?.status;
const salary = (amount: number, maxAmount: number | null, typeId: number) => ({ amount: units(amount), maxAmount: maxAmount === null ? null : units(maxAmount), typeId });

describe("the rules as data (DESIGN 19)", () => {
  it("every rule has a stable id, a jurisdiction, a title, a citation, an official https source and an effective date", () => {
    expect(POSTING_RULES.map((rule) => rule.id)).toEqual(["bc.pay", "pe.pay", "on.pay", "on.ai", "on.vacancy", "on.canadianExperience", "qc.french"]);
    for (const rule of POSTING_RULES) {
      expect(rule.id.startsWith(`${rule.jurisdiction.toLowerCase()}.`), rule.id).toBe(true);
      expect(rule.title.length, rule.id).toBeGreaterThan(10);
      expect(rule.law.length, rule.id).toBeGreaterThan(10);
      expect(new URL(rule.source).protocol, rule.id).toBe("https:");
      expect(rule.effective, rule.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("only the rules of the job's jurisdictions are listed, each once, in the rules' order", () => {
    expect(checkPostingRules(job({ provinces: ["SK"] }), large)).toEqual([]);
    const twoProvinces = checkPostingRules(job({ provinces: ["QC", "BC", "QC"] }), large);
    expect(twoProvinces.map((outcome) => [outcome.rule, outcome.jurisdiction])).toEqual([["bc.pay", "BC"], ["qc.french", "QC"]]);
    expect(checkPostingRules(job({ provinces: ["ON"] }), large).map((outcome) => outcome.rule)).toEqual(["on.pay", "on.ai", "on.vacancy", "on.canadianExperience"]);
  });

  it("a job in two provinces is judged by both: met in one, broken in the other", () => {
    const outcomes = checkPostingRules(job({ provinces: ["BC", "QC"] }), large);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["met", "broken"]);
    expect(outcomes[1]).toMatchObject({ field: "translations.fr", law: expect.stringContaining("Charter of the French language") });
  });
});

describe("bc.pay and pe.pay: the pay, or a range with both ends", () => {
  for (const [rule, province, effective] of [["bc.pay", "BC", "2023-11-01"], ["pe.pay", "PE", "2022-06-01"]] as const) {
    it(`${rule}: met with an amount or a range, broken without a salary, not applicable before ${effective}`, () => {
      expect(statusOf(rule, job({ provinces: [province], salary: salary(25, null, HOURLY) }))).toBe("met");
      expect(statusOf(rule, job({ provinces: [province], salary: salary(25, 30, HOURLY) }))).toBe("met");
      const broken = checkPostingRules(job({ provinces: [province], salary: null }), large)[0];
      expect(broken).toMatchObject({ rule, status: "broken", field: "salary" });
      const before = Date.parse(`${effective}T00:00:00Z`) / 1000 - 1;
      expect(statusOf(rule, job({ provinces: [province], salary: null, publishDate: before }))).toBe("notApplicable");
      expect(statusOf(rule, job({ provinces: [province], salary: null, publishDate: before + 1 }))).toBe("broken");
    });
  }

  it("a federally regulated employer is exempt from both", () => {
    const federal = { ontarioEmployees: null, federallyRegulated: true };
    expect(statusOf("bc.pay", job({ provinces: ["BC"], salary: null }), federal)).toBe("notApplicable");
    expect(statusOf("pe.pay", job({ provinces: ["PE"], salary: null }), federal)).toBe("notApplicable");
  });
});

describe("on.pay: the pay, or a range at most 50 000 CAD a year wide; none needed above 200 000", () => {
  it("broken without a salary", () => {
    expect(checkPostingRules(job({ salary: null }), large)[0]).toMatchObject({ rule: "on.pay", status: "broken", field: "salary" });
  });

  it("the 50 000 edge: a range exactly 50 000 wide is met, one cent wider is broken", () => {
    expect(statusOf("on.pay", job({ salary: salary(60_000, 110_000, YEARLY) }))).toBe("met");
    expect(statusOf("on.pay", job({ salary: { amount: units(60_000), maxAmount: units(110_000) + 100, typeId: YEARLY } }))).toBe("broken");
  });

  it("the 200 000 edge: a top of exactly 200 000 is judged, above it is not applicable", () => {
    expect(statusOf("on.pay", job({ salary: salary(100_000, 200_000, YEARLY) }))).toBe("broken");
    expect(statusOf("on.pay", job({ salary: salary(100_000, 200_001, YEARLY) }))).toBe("notApplicable");
    expect(statusOf("on.pay", job({ salary: salary(210_000, null, YEARLY) }))).toBe("notApplicable");
  });

  it("hourly ranges are compared per year (× 2 080): 20–44 an hour is 49 920 wide, 20–45 is 52 000", () => {
    expect(statusOf("on.pay", job({ salary: salary(20, 44, HOURLY) }))).toBe("met");
    const wide = checkPostingRules(job({ salary: salary(20, 45, HOURLY) }), large)[0];
    expect(wide).toMatchObject({ status: "broken", field: "salary" });
    expect(wide.message).toContain("52,000 CAD");
  });

  it("daily × 260, weekly × 52 and monthly × 12", () => {
    expect(statusOf("on.pay", job({ salary: salary(200, 392, DAILY) }))).toBe("met"); // 49 920
    expect(statusOf("on.pay", job({ salary: salary(200, 393, DAILY) }))).toBe("broken"); // 50 180
    expect(statusOf("on.pay", job({ salary: salary(1_000, 1_961, WEEKLY) }))).toBe("met"); // 49 972
    expect(statusOf("on.pay", job({ salary: salary(1_000, 1_962, WEEKLY) }))).toBe("broken"); // 50 024
    expect(statusOf("on.pay", job({ salary: salary(5_000, 9_166, MONTHLY) }))).toBe("met"); // 49 992
    expect(statusOf("on.pay", job({ salary: salary(5_000, 9_167, MONTHLY) }))).toBe("broken"); // 50 004
    expect(statusOf("on.pay", job({ salary: salary(100, null, HOURLY) }))).toBe("notApplicable"); // 208 000 a year
  });
});

describe("on.ai, on.vacancy and on.canadianExperience", () => {
  it("on.ai: met when true or false, broken when not said", () => {
    expect(statusOf("on.ai", job({ aiUsedInSelection: true }))).toBe("met");
    expect(statusOf("on.ai", job({ aiUsedInSelection: false }))).toBe("met");
    expect(checkPostingRules(job({ aiUsedInSelection: null }), large)[1]).toMatchObject({ rule: "on.ai", status: "broken", field: "aiUsedInSelection" });
  });

  it("on.vacancy: met when true or false, broken when not said", () => {
    expect(statusOf("on.vacancy", job({ existingVacancy: false }))).toBe("met");
    expect(checkPostingRules(job({ existingVacancy: null }), large)[2]).toMatchObject({ rule: "on.vacancy", status: "broken", field: "existingVacancy" });
  });

  it("on.canadianExperience: broken naming the first member that asks for it", () => {
    expect(statusOf("on.canadianExperience", job())).toBe("met");
    expect(checkPostingRules(job({ canadianExperienceIn: ["description", "translations.fr"] }), large)[3]).toMatchObject({
      status: "broken",
      field: "description",
    });
  });

  it("a small Ontario employer (under 25) has every on.* rule not applicable; 25 and unknown count", () => {
    const bare = job({ salary: null, aiUsedInSelection: null, existingVacancy: null, canadianExperienceIn: ["title"] });
    const small = checkPostingRules(bare, { ontarioEmployees: 24, federallyRegulated: false });
    expect(small.map((outcome) => outcome.status)).toEqual(["notApplicable", "notApplicable", "notApplicable", "notApplicable"]);
    expect(small[0].message).toContain("25 or more");
    for (const ontarioEmployees of [25, null]) {
      const outcomes = checkPostingRules(bare, { ontarioEmployees, federallyRegulated: false });
      expect(outcomes.map((outcome) => outcome.status), String(ontarioEmployees)).toEqual(["broken", "broken", "broken", "broken"]);
    }
  });

  it("a federally regulated employer has every on.* rule not applicable, but not qc.french", () => {
    const federal = { ontarioEmployees: 500, federallyRegulated: true };
    const outcomes = checkPostingRules(job({ provinces: ["ON", "QC"], salary: null, aiUsedInSelection: null }), federal);
    expect(outcomes.map((outcome) => [outcome.rule, outcome.status])).toEqual([
      ["on.pay", "notApplicable"],
      ["on.ai", "notApplicable"],
      ["on.vacancy", "notApplicable"],
      ["on.canadianExperience", "notApplicable"],
      ["qc.french", "broken"],
    ]);
  });

  it("Ontario's rules apply to postings published from 2026-01-01 on", () => {
    const bare = job({ aiUsedInSelection: null });
    expect(statusOf("on.ai", { ...bare, publishDate: DAY("2025-12-31") })).toBe("notApplicable");
    expect(statusOf("on.ai", { ...bare, publishDate: DAY("2026-01-01") })).toBe("broken");
  });
});

describe("qc.french", () => {
  it("met with a French version, broken without one", () => {
    expect(statusOf("qc.french", job({ provinces: ["QC"], hasFrench: true }))).toBe("met");
    expect(statusOf("qc.french", job({ provinces: ["QC"], hasFrench: false }))).toBe("broken");
  });
});

describe("the Canadian experience wording: English and French, case, accents and markup ignored", () => {
  it.each([
    "Canadian experience required",
    "CANADIAN   EXPERIENCE",
    "<p>Must have <strong>Canadian</strong>\n<em>experience</em>.</p>",
    "Canadian&nbsp;experience",
    "Expérience canadienne exigée",
    "EXPERIENCE CANADIENNE",
    "l'expérience  canadienne",
    "Exp&#233;rience canadienne",
  ])("asks for it: %s", (text) => {
    expect(mentionsCanadianExperience(text)).toBe(true);
  });

  it.each(["Canadian citizens and permanent residents", "experience in Canada", "canadianexperience", "Canadians experienced in sales", "", null])(
    "does not: %s",
    (text) => {
      expect(mentionsCanadianExperience(text)).toBe(false);
    },
  );
});

describe("employer bands: a write is refused in SQL by the kind of employer it breaks a rule for", () => {
  it("there are four kinds: federal or not, under 25 in Ontario or not", () => {
    expect(EMPLOYER_BANDS).toEqual([
      { federallyRegulated: false, from: 0, below: 25 },
      { federallyRegulated: false, from: 25, below: null },
      { federallyRegulated: true, from: 0, below: 25 },
      { federallyRegulated: true, from: 25, below: null },
    ]);
  });

  it("an Ontario job without the AI statement breaks a rule only for a provincially regulated employer of 25 or more", () => {
    expect(bandsBreaking(job({ aiUsedInSelection: null }))).toEqual([{ federallyRegulated: false, from: 25, below: null }]);
  });

  it("a Quebec job without French breaks a rule for every kind; a compliant job for none", () => {
    expect(bandsBreaking(job({ provinces: ["QC"] }))).toEqual(EMPLOYER_BANDS);
    expect(bandsBreaking(job())).toEqual([]);
  });
});
