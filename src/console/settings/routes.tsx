import { Hono } from "hono";
import { EmployerSettingsInputSchema } from "../../employers/schemas";
import { changeEmployer, getEmployer, SettingsChangedError } from "../../employers/service";
import { dispatchAfterResponse } from "../../events/dispatch";
import type { RecordedEvent } from "../../events/outbox";
import type { ConsoleContext, ConsoleEnv } from "../context";
import { adminOnly, langOf, page } from "../render";
import { SHELL_WORDS } from "../shell";
import { CurrentSettings, SettingsForm, valuesOf, type SettingsErrors, type SettingsField, type SettingsValues } from "./form";
import { SETTINGS_WORDS } from "./words";

// DESIGN 19, 25: the employer's settings, for admins — the API's PUT /employer through the same
// schema and service, its events dispatched as the API dispatches them. The form carries the
// revision it was opened at: a save against a newer one saves nothing (409) and shows both.

export const settingsPages = new Hono<ConsoleEnv>();
settingsPages.use("/employer/settings", adminOnly);

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** A number as the schema reads one; anything else stays text, for the schema to refuse. */
const numberOrText = (value: string) => (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value);

async function typedValues(c: ConsoleContext): Promise<SettingsValues> {
  const form = await c.req.parseBody();
  const revision = text(form.revision);
  return {
    name: text(form.name),
    ontarioEmployees: text(form.ontarioEmployees).trim(),
    federallyRegulated: form.federallyRegulated !== undefined,
    postingRules: text(form.postingRules),
    // A form without the revision it was opened at is never taken for the current one.
    revision: /^\d{1,15}$/.test(revision) ? Number(revision) : -1,
  };
}

function settingsPage(c: ConsoleContext, content: { values: SettingsValues; errors?: SettingsErrors; saved?: boolean }, status: 200 | 422 = 200) {
  const lang = langOf(c);
  const words = SETTINGS_WORDS[lang];
  return page(
    c,
    words.title,
    <>
      {content.saved ? <p role="status">{SHELL_WORDS[lang].saved}</p> : null}
      {content.errors ? (
        <p role="alert" class="error">
          {words.notSaved}
        </p>
      ) : null}
      <p>{words.intro}</p>
      <SettingsForm lang={lang} values={content.values} errors={content.errors} />
    </>,
    status,
  );
}

settingsPages.get("/employer/settings", async (c) => {
  const employer = await getEmployer(c.var.db, c.var.employerId);
  return settingsPage(c, { values: valuesOf(employer), saved: c.req.query("saved") !== undefined });
});

settingsPages.post("/employer/settings", async (c) => {
  const lang = langOf(c);
  const words = SETTINGS_WORDS[lang];
  const values = await typedValues(c);
  const parsed = EmployerSettingsInputSchema.safeParse({
    name: values.name,
    ontarioEmployees: values.ontarioEmployees === "" ? null : numberOrText(values.ontarioEmployees),
    federallyRegulated: values.federallyRegulated,
    postingRules: values.postingRules,
  });
  if (!parsed.success) {
    const errors: SettingsErrors = {};
    for (const issue of parsed.error.issues) errors[issue.path[0] as SettingsField] = words.errors[issue.path[0] as SettingsField];
    return settingsPage(c, { values, errors }, 422);
  }
  const events: RecordedEvent[] = [];
  try {
    await changeEmployer(c.var.db, c.var.employerId, parsed.data, events, values.revision);
  } catch (error) {
    if (!(error instanceof SettingsChangedError)) throw error;
    return page(
      c,
      words.changedTitle,
      <>
        <p role="alert">{words.changed}</p>
        <CurrentSettings lang={lang} employer={error.current} />
        <p>{words.yours}</p>
        <SettingsForm lang={lang} values={{ ...values, revision: error.current.revision }} />
      </>,
      409,
    );
  }
  dispatchAfterResponse(c as never, events);
  return c.redirect("/employer/settings?saved", 303);
});
