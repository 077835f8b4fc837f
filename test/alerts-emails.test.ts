import { HtmlValidate } from "html-validate/browser";
import { describe, expect, it } from "vitest";
import { alertEmail, confirmationEmail, keepEmail, type Language } from "../src/alerts/email";
import type { JobCard } from "../src/alerts/rules";

// DESIGN 23: the alerts' emails render in both languages, and their HTML passes html-validate's
// standard rules (as the board pages do in test/browser/board-pages.mjs).

const sender = { name: "Job Board", postalAddress: "100 Example Street, Toronto ON  M5V 0A1, Canada", contact: "privacy@jobs.example.com", from: "alerts@jobs.example.com" };
const links = { manage: "https://jobs.example.com/alerts/manage/t", unsubscribe: "https://jobs.example.com/alerts/unsubscribe/t", feed: "https://jobs.example.com/alerts/feed/f", search: "https://jobs.example.com/?q=a%26b" };
const card: JobCard = {
  id: 7,
  title: "Comptable <senior> & \"associé\"",
  employer: null,
  publishDate: "2026-11-20T10:00:00Z",
  closeDate: "2027-01-19T23:59:59Z",
  locations: [{ description: "Montréal, QC" }],
  salary: { amount: 65000, maxAmount: 72000, type: { id: 1, name: "Yearly", unit: "year" }, plusCommission: false },
};
const validator = new HtmlValidate({ extends: ["html-validate:standard"] });

describe("alert emails' HTML", () => {
  it("the validator is not vacuous: it reports a broken document", async () => {
    expect((await validator.validateString("<!DOCTYPE html><html lang=\"en\"><head><title>x</title></head><body><p><div></p></body></html>")).valid).toBe(false);
  });

  for (const language of ["en", "fr"] as Language[]) {
    it(`the confirmation, alert and keep emails in ${language} are valid HTML (html-validate:standard), with lang="${language}", text escaped`, async () => {
      const mails = [
        confirmationEmail({ language, to: "a@example.com", search: "“comptable”", confirmLink: "https://jobs.example.com/alerts/confirm/t", declineLink: "https://jobs.example.com/alerts/decline/t", sender }),
        alertEmail({ language, to: "a@example.com", search: "“comptable”", askedAt: Date.UTC(2026, 10, 1), jobs: [card], jobLink: () => "https://jobs.example.com/jobs/7-comptable", links, sender, listId: "<job-alerts.jobs.example.com>" }),
        keepEmail({ language, to: "a@example.com", search: "“comptable”", askedAt: Date.UTC(2026, 10, 1), links, sender, listId: "<job-alerts.jobs.example.com>" }),
      ];
      for (const mail of mails) {
        const report = await validator.validateString(mail.html);
        expect(report.results.flatMap((result) => result.messages.map((m) => `${m.ruleId}: ${m.message}`)), mail.subject).toEqual([]);
        expect(mail.html).toContain(`<html lang="${language}">`);
        expect(mail.html).not.toContain("<senior>");
        expect(mail.text).toContain(sender.postalAddress);
        // The confirmation's "this was not me" link, in both parts.
        if (mail.subject.startsWith(language === "fr" ? "Confirmez" : "Confirm")) {
          expect(mail.text).toContain("https://jobs.example.com/alerts/decline/t");
          expect(mail.html).toContain('<a href="https://jobs.example.com/alerts/decline/t">');
        }
      }
    });
  }
});

describe("pay in alert emails (DESIGN 18, 23)", () => {
  const email = (language: Language, salary: JobCard["salary"]) =>
    alertEmail({ language, to: "a@example.com", search: "“clerk”", askedAt: Date.UTC(2026, 10, 1), jobs: [{ ...card, salary }], jobLink: () => "https://jobs.example.com/jobs/7-clerk", links, sender, listId: "<job-alerts.jobs.example.com>" });
  const hourly = { amount: 31.25, maxAmount: null, type: { id: 5, name: "Hourly", unit: "hour" }, plusCommission: false };
  const yearly = { amount: 65000, maxAmount: 72000.5, type: { id: 1, name: "Yearly", unit: "year" }, plusCommission: true };
  // As test/board-pages.test.ts reads them on the job page: cents, the unit in words, the commission.
  const shown = {
    en: { hourly: "$31.25 an hour", yearly: "$65,000.00 – $72,000.50 a year, plus commission" },
    fr: { hourly: "31,25\u00a0$ de l'heure", yearly: "65\u00a0000,00\u00a0$ – 72\u00a0000,50\u00a0$ par année, plus commission" },
  };
  const escaped = (text: string) => text.replace(/'/g, "&#39;");

  for (const language of ["en", "fr"] as Language[]) {
    it(`an alert email shows pay exactly as the board's pages do, cents kept (${shown[language].hourly}), in ${language}, in the text and the HTML`, () => {
      for (const [salary, text] of [
        [hourly, shown[language].hourly],
        [yearly, shown[language].yearly],
      ] as const) {
        const mail = email(language, salary);
        expect(mail.text).toContain(`  ${text}\n`);
        expect(mail.html).toContain(`${escaped(text)}<br>`);
      }
    });
  }
});
