import type { BoardJob } from "../board/pages";
import { Field, FieldError, tieToError } from "../ui/fields";
import type { Lang } from "../ui/i18n";
import { WORDS } from "./i18n";

// DESIGN 18: the apply form on a job page (email routing): the application API's fields, the
// job's screening questions, a résumé. A multipart POST to the page itself; on errors the form
// again with the values kept (not the file) and each message tied to its field.

export interface ApplyState {
  values: Record<string, string | string[]>;
  /** By the API's field names (`email`, `answers.permit`, `resume`). */
  errors: Record<string, string>;
  /** A problem of the whole application (a closed job, too many attempts). */
  problem?: string;
}

const fieldId = (field: string) => `apply-${field.replace(/[^a-zA-Z0-9]+/g, "-")}`;

const valueOf = (state: ApplyState | undefined, name: string) => {
  const value = state?.values[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
};

/** Turnstile's widget script: the only script a page may load, and only with a site key. */
export const TURNSTILE_ORIGIN = "https://challenges.cloudflare.com";

export function ApplyForm(props: { job: BoardJob; lang: Lang; action: string; state?: ApplyState; turnstileSiteKey?: string }) {
  const { job, lang, state } = props;
  const words = WORDS[lang];
  const text = (name: string) => valueOf(state, name)[0] ?? "";
  const error = (field: string) => state?.errors[field];
  return (
    <section aria-labelledby="apply-title">
      <h2 id="apply-title">{words.applyTitle}</h2>
      {state ? (
        <div role="alert" class="error">
          <p>{state.problem ?? words.formErrors}</p>
          {Object.keys(state.errors).length ? (
            <ul>
              {Object.entries(state.errors).map(([field, message]) => (
                <li>
                  <a href={`#${fieldId(field)}`}>{message}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <form method="post" action={props.action} enctype="multipart/form-data">
        <input type="hidden" name="language" value={lang} />
        <Field id={fieldId("name")} label={`${words.name} (${words.required})`} error={error("name")}>
          {(aria) => <input id={fieldId("name")} name="name" required maxlength={100} autocomplete="name" value={text("name")} {...aria} />}
        </Field>
        <Field id={fieldId("email")} label={`${words.email} (${words.required})`} error={error("email")}>
          {(aria) => <input id={fieldId("email")} name="email" type="email" required maxlength={254} autocomplete="email" value={text("email")} {...aria} />}
        </Field>
        <Field id={fieldId("phone")} label={words.phone} error={error("phone")}>
          {(aria) => <input id={fieldId("phone")} name="phone" type="tel" maxlength={30} autocomplete="tel" value={text("phone")} {...aria} />}
        </Field>
        {job.questions.map((question) => {
          const field = `answers.${question.key}`;
          const name = `answers[${question.key}]`;
          const label = `${question.text}${question.required ? ` (${words.required})` : ""}`;
          if (question.type === "yesNo" || question.type === "singleChoice" || question.type === "multiChoice") {
            const choices: [string, string][] =
              question.type === "yesNo" ? [["true", words.yes], ["false", words.no]] : question.options!.map((option) => [option, option]);
            const chosen = valueOf(state, name);
            return (
              <fieldset id={fieldId(field)} {...tieToError(fieldId(field), error(field))}>
                <legend>{label}</legend>
                {choices.map(([value, shown], i) => (
                  <label>
                    <input
                      type={question.type === "multiChoice" ? "checkbox" : "radio"}
                      name={name}
                      value={value}
                      checked={chosen.includes(value)}
                      required={question.required && question.type !== "multiChoice" && i === 0}
                    />{" "}
                    {shown}
                  </label>
                ))}
                <FieldError id={fieldId(field)} message={error(field)} />
              </fieldset>
            );
          }
          return (
            <Field id={fieldId(field)} label={label} error={error(field)}>
              {(aria) =>
                question.type === "text" ? (
                  <textarea id={fieldId(field)} name={name} maxlength={question.maxLength ?? undefined} required={question.required} {...aria}>
                    {text(name)}
                  </textarea>
                ) : (
                  <input
                    id={fieldId(field)}
                    name={name}
                    type="number"
                    step="any"
                    min={question.min ?? undefined}
                    max={question.max ?? undefined}
                    required={question.required}
                    value={text(name)}
                    {...aria}
                  />
                )
              }
            </Field>
          );
        })}
        <Field id={fieldId("coverLetter")} label={words.coverLetter} error={error("coverLetter")}>
          {(aria) => (
            <textarea id={fieldId("coverLetter")} name="coverLetter" maxlength={10000} rows={6} {...aria}>
              {text("coverLetter")}
            </textarea>
          )}
        </Field>
        <Field id={fieldId("resume")} label={words.resume} error={error("resume")}>
          {(aria) => (
            <input
              id={fieldId("resume")}
              name="resume"
              type="file"
              accept=".pdf,.docx,.txt,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,text/plain"
              {...aria}
            />
          )}
        </Field>
        {props.turnstileSiteKey ? (
          <>
            <div class="cf-turnstile" data-sitekey={props.turnstileSiteKey} data-language={lang}></div>
            <script src={`${TURNSTILE_ORIGIN}/turnstile/v0/api.js`} async defer></script>
          </>
        ) : null}
        <button type="submit">{words.send}</button>
      </form>
    </section>
  );
}
