import { describe, expect, it } from "vitest";
import { toFieldErrors } from "../src/http/validation";
import { asksForPayHistory, checkAnswers, normalizeQuestion, QuestionsInputSchema, type Question } from "../src/screening";

// DESIGN 20 as pure functions: every rule of a question, every rule of an answer, knockout.

const fieldsOf = (questions: unknown) => {
  const parsed = QuestionsInputSchema.safeParse(questions);
  return parsed.success ? [] : toFieldErrors(parsed.error.issues, ["questions"]).map((error) => error.field);
};
const yesNo = { key: "permit", text: "Are you legally entitled to work in Canada?", type: "yesNo" };
const choice = { key: "shift", text: "Which shift?", type: "singleChoice", options: ["Day", "Night"] };

describe("questions on a job: every rule names questions[i].member", () => {
  it("a valid set of every type parses, with defaults", () => {
    const questions = [
      { ...yesNo, required: true, knockout: false },
      { ...choice, knockout: ["Night"] },
      { key: "langs", text: "Languages you speak?", type: "multiChoice", options: ["English", "French", "Other"] },
      { key: "why", text: "Why us?", type: "text" },
      { key: "years", text: "Years of experience?", type: "number", min: 0, max: 50 },
    ];
    expect(fieldsOf(questions)).toEqual([]);
    const parsed = QuestionsInputSchema.parse(questions).map(normalizeQuestion);
    expect(parsed[0]).toEqual({ ...yesNo, required: true, options: null, maxLength: null, min: null, max: null, knockout: false });
    expect(parsed[3]).toMatchObject({ required: false, maxLength: 1000, options: null, knockout: null });
    expect(parsed[4]).toMatchObject({ min: 0, max: 50, maxLength: null });
  });

  it("at most 20 questions", () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ ...yesNo, key: `q${i}` }));
    expect(fieldsOf(many)).toEqual(["questions"]);
    expect(fieldsOf(many.slice(0, 20))).toEqual([]);
  });

  it.each([
    [{ ...yesNo, key: "" }, "questions[0].key"],
    [{ ...yesNo, key: "Has Space" }, "questions[0].key"],
    [{ ...yesNo, key: "k".repeat(41) }, "questions[0].key"],
    [{ ...yesNo, text: "" }, "questions[0].text"],
    [{ ...yesNo, text: "x".repeat(501) }, "questions[0].text"],
    [{ ...yesNo, type: "date" }, "questions[0].type"],
    [{ ...yesNo, required: "yes" }, "questions[0].required"],
    [{ ...choice, options: undefined }, "questions[0].options"],
    [{ ...choice, options: ["Only one"] }, "questions[0].options"],
    [{ ...choice, options: ["A", "A"] }, "questions[0].options"],
    [{ ...choice, options: ["A", ""] }, "questions[0].options[1]"],
    [{ ...choice, options: ["A", "x".repeat(201)] }, "questions[0].options[1]"],
    [{ ...choice, options: Array.from({ length: 21 }, (_, i) => `o${i}`) }, "questions[0].options"],
    [{ ...yesNo, options: ["Yes", "No"] }, "questions[0].options"],
    [{ ...yesNo, maxLength: 10 }, "questions[0].maxLength"],
    [{ key: "why", text: "Why?", type: "text", maxLength: 5001 }, "questions[0].maxLength"],
    [{ key: "why", text: "Why?", type: "text", maxLength: 0 }, "questions[0].maxLength"],
    [{ ...yesNo, min: 1 }, "questions[0].min"],
    [{ key: "n", text: "How many?", type: "number", min: 5, max: 1 }, "questions[0].max"],
    [{ ...yesNo, knockout: ["No"] }, "questions[0].knockout"],
    [{ ...choice, knockout: true }, "questions[0].knockout"],
    [{ ...choice, knockout: ["Evening"] }, "questions[0].knockout"],
    [{ key: "why", text: "Why?", type: "text", knockout: true }, "questions[0].knockout"],
  ])("%j is refused at %s", (question, field) => {
    expect(fieldsOf([question])).toContain(field);
  });

  it("keys are unique in a job: the second use is named", () => {
    expect(fieldsOf([yesNo, { ...yesNo }])).toEqual(["questions[1].key"]);
  });

  it("a question asking for current or past pay is refused, in English or French (BC s. 3, PEI s. 5.8); expected pay is allowed", () => {
    for (const text of ["What is your current salary?", "Please give your salary history.", "Previous pay?", "Quel est votre salaire actuel?", "Historique salarial", "Combien gagnez-vous?"]) {
      expect(asksForPayHistory(text), text).toBe(true);
      expect(fieldsOf([{ ...yesNo, text }]), text).toEqual(["questions[0].text"]);
    }
    for (const text of ["What are your salary expectations?", "Expected salary?", "Quel salaire souhaitez-vous?", "Are you OK with the posted pay range?"]) {
      expect(asksForPayHistory(text), text).toBe(false);
    }
  });
});

const questions: Question[] = QuestionsInputSchema.parse([
  { ...yesNo, required: true, knockout: false },
  { ...choice, knockout: ["Night"] },
  { key: "langs", text: "Languages?", type: "multiChoice", options: ["English", "French", "Other"], knockout: ["Other"] },
  { key: "why", text: "Why us?", type: "text", maxLength: 10 },
  { key: "years", text: "Years?", type: "number", min: 0, max: 50 },
]).map(normalizeQuestion);

describe("answers on apply: each checked against its question, every problem at once", () => {
  it("good answers are kept in their types; no knockout, not screened out", () => {
    const checked = checkAnswers(questions, { permit: true, shift: "Day", langs: ["English", "French"], why: "Growth", years: 4.5 }, false);
    expect(checked).toEqual({ answers: { permit: true, shift: "Day", langs: ["English", "French"], why: "Growth", years: 4.5 }, screenedOut: false, errors: [] });
  });

  it("every broken answer, unknown key and missing required answer is named in one list", () => {
    const checked = checkAnswers(questions, { shift: "Evening", langs: ["English", "English"], why: "x".repeat(11), years: 51, salary: 1 }, false);
    expect(checked.errors.map((error) => error.field)).toEqual(["answers.salary", "answers.permit", "answers.shift", "answers.langs", "answers.why", "answers.years"]);
  });

  it.each([
    [{ permit: "yes" }, "answers.permit"],
    [{ permit: true, shift: ["Day"] }, "answers.shift"],
    [{ permit: true, langs: "English" }, "answers.langs"],
    [{ permit: true, langs: ["Klingon"] }, "answers.langs"],
    [{ permit: true, why: 42 }, "answers.why"],
    [{ permit: true, why: "a\u0000b" }, "answers.why"],
    [{ permit: true, years: "4" }, "answers.years"],
    [{ permit: true, years: -1 }, "answers.years"],
  ])("%j is refused at %s", (answers, field) => {
    expect(checkAnswers(questions, answers, false).errors.map((error) => error.field)).toEqual([field]);
  });

  it("optional questions may be left out, empty or null; a required one may not", () => {
    expect(checkAnswers(questions, { permit: false, why: "", langs: [], years: null }, false).errors).toEqual([]);
    expect(checkAnswers(questions, {}, false).errors.map((error) => error.field)).toEqual(["answers.permit"]);
    expect(checkAnswers([], undefined, false)).toEqual({ answers: {}, screenedOut: false, errors: [] });
  });

  it("answers that are not an object, or far more members than questions, are one error", () => {
    expect(checkAnswers(questions, [true], false).errors.map((error) => error.field)).toEqual(["answers"]);
    const flood = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 1]));
    expect(checkAnswers(questions, flood, false).errors).toHaveLength(1);
  });

  it("a knockout answer is accepted and screens out: yesNo, singleChoice, and any multiChoice option", () => {
    expect(checkAnswers(questions, { permit: false }, false)).toMatchObject({ screenedOut: true, errors: [] });
    expect(checkAnswers(questions, { permit: true, shift: "Night" }, false)).toMatchObject({ screenedOut: true, errors: [] });
    expect(checkAnswers(questions, { permit: true, langs: ["English", "Other"] }, false)).toMatchObject({ screenedOut: true, errors: [] });
    expect(checkAnswers(questions, { permit: true, shift: "Day", langs: ["French"] }, false).screenedOut).toBe(false);
  });

  it("in multipart, yesNo is true/false, numbers are JSON number literals and one multiChoice option may come alone", () => {
    const checked = checkAnswers(questions, { permit: "true", years: "4.5", langs: "French", shift: "Day" }, true);
    expect(checked).toEqual({ answers: { permit: true, years: 4.5, langs: ["French"], shift: "Day" }, screenedOut: false, errors: [] });
    expect(checkAnswers(questions, { permit: "yes", years: "4,5" }, true).errors.map((error) => error.field)).toEqual(["answers.permit", "answers.years"]);
  });
});
