import { REPORT_REASONS } from "../reports/tables";
import { Field } from "../ui/fields";
import { Layout } from "../ui/layout";
import type { Lang } from "../ui/i18n";
import { WORDS } from "./i18n";

// DESIGN 18, 18a: "Report this job" — reason, details, an optional email; 303 to a confirmation.

export function ReportPage(props: {
  lang: Lang;
  addresses: Record<Lang, string>;
  jobTitle: string;
  jobAddress: string;
  values?: Record<string, string>;
  errors?: Record<string, string>;
  sent?: boolean;
}) {
  const words = WORDS[props.lang];
  const errors = props.errors ?? {};
  return (
    <Layout lang={props.lang} title={words.reportTitle} description={words.reportIntro} addresses={props.addresses}>
      <h1>{words.reportTitle}</h1>
      <p>
        <a href={props.jobAddress}>{props.jobTitle}</a>
      </p>
      {props.sent ? (
        <p role="status">{words.reportSent}</p>
      ) : (
        <>
          <p>{words.reportIntro}</p>
          {Object.keys(errors).length ? (
            <p role="alert" class="error">
              {words.reportErrors}
            </p>
          ) : null}
          <form method="post">
            <Field id="report-reason" label={`${words.reason} (${words.required})`} error={errors.reason}>
              {(aria) => (
                <select id="report-reason" name="reason" required {...aria}>
                  <option value="">{words.chooseReason}</option>
                  {REPORT_REASONS.map((reason) => (
                    <option value={reason} selected={props.values?.reason === reason}>
                      {words.reasons[reason]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id="report-details" label={words.details} error={errors.details}>
              {(aria) => (
                <textarea id="report-details" name="details" maxlength={2000} rows={6} {...aria}>
                  {props.values?.details ?? ""}
                </textarea>
              )}
            </Field>
            <Field id="report-email" label={words.yourEmail} error={errors.email}>
              {(aria) => <input id="report-email" name="email" type="email" maxlength={254} autocomplete="email" value={props.values?.email ?? ""} {...aria} />}
            </Field>
            <button type="submit">{words.sendReport}</button>
          </form>
        </>
      )}
    </Layout>
  );
}

const POLICY = {
  en: [
    "Fraudulent job postings hurt job seekers. This board does not allow postings that ask applicants for money, bank or identity details before an offer, that advertise a job that does not exist, that misstate the pay or the employer, or that discriminate.",
    "Every job page has a “Report this job” link. Reports reach the board's operator, who reviews each one; postings that break this policy are removed, and the employers behind them can lose access to the board.",
    "Never send money or identity documents to get a job. If a posting asks for them, report it, and if you lost money, contact the Canadian Anti-Fraud Centre (1-888-495-8501).",
  ],
  fr: [
    "Les offres d'emploi frauduleuses nuisent aux chercheurs d'emploi. Ce site n'accepte pas les offres qui demandent de l'argent, des coordonnées bancaires ou des pièces d'identité avant une offre d'emploi, qui annoncent un emploi qui n'existe pas, qui trompent sur le salaire ou l'employeur, ou qui sont discriminatoires.",
    "Chaque page d'offre comporte un lien « Signaler cette offre ». Les signalements parviennent à l'exploitant du site, qui examine chacun d'eux; les offres qui enfreignent cette politique sont retirées, et les employeurs en cause peuvent perdre l'accès au site.",
    "N'envoyez jamais d'argent ni de pièces d'identité pour obtenir un emploi. Si une offre en demande, signalez-la et, si vous avez perdu de l'argent, communiquez avec le Centre antifraude du Canada (1-888-495-8501).",
  ],
} as const;

export function FraudPolicyPage(props: { lang: Lang; addresses: Record<Lang, string> }) {
  const words = WORDS[props.lang];
  return (
    <Layout lang={props.lang} title={words.fraudTitle} description={POLICY[props.lang][0]} addresses={props.addresses}>
      <h1>{words.fraudTitle}</h1>
      {POLICY[props.lang].map((paragraph) => (
        <p>{paragraph}</p>
      ))}
    </Layout>
  );
}
