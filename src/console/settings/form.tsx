import type { Employer } from "../../employers/service";
import { POSTING_RULES_MODES } from "../../employers/schemas";
import { Field, FieldError, tieToError } from "../../ui/fields";
import type { Lang } from "../../ui/i18n";
import { SETTINGS_WORDS } from "./words";

// DESIGN 19, 25: the settings form, and the settings as they are (shown beside a refused save).

/** The form's fields as typed (the number as text), and the revision the form was opened at. */
export interface SettingsValues {
  name: string;
  ontarioEmployees: string;
  federallyRegulated: boolean;
  postingRules: string;
  revision: number;
}

export type SettingsField = keyof typeof SETTINGS_WORDS.en.errors;
export type SettingsErrors = Partial<Record<SettingsField, string>>;

export const valuesOf = (employer: Employer): SettingsValues => ({
  name: employer.name,
  ontarioEmployees: employer.ontarioEmployees === null ? "" : String(employer.ontarioEmployees),
  federallyRegulated: employer.federallyRegulated,
  postingRules: employer.postingRules,
  revision: employer.revision,
});

export function SettingsForm(props: { lang: Lang; values: SettingsValues; errors?: SettingsErrors }) {
  const words = SETTINGS_WORDS[props.lang];
  const { values, errors = {} } = props;
  return (
    <form method="post" action="/employer/settings">
      <input type="hidden" name="revision" value={String(values.revision)} />
      <Field id="name" label={words.name} hint={words.nameHint} error={errors.name}>
        {(aria) => <input id="name" name="name" type="text" required maxlength={128} autocomplete="organization" value={values.name} {...aria} />}
      </Field>
      <Field id="ontarioEmployees" label={words.ontarioEmployees} hint={words.ontarioEmployeesHint} error={errors.ontarioEmployees}>
        {(aria) => <input id="ontarioEmployees" name="ontarioEmployees" type="text" inputmode="numeric" value={values.ontarioEmployees} {...aria} />}
      </Field>
      <fieldset>
        <legend>{words.federal}</legend>
        <label>
          <input type="checkbox" name="federallyRegulated" value="yes" checked={values.federallyRegulated} aria-describedby="federallyRegulated-hint" /> {words.federallyRegulated}
        </label>
        <small id="federallyRegulated-hint">{words.federallyRegulatedHint}</small>
      </fieldset>
      <fieldset id="postingRules" {...tieToError("postingRules", errors.postingRules)}>
        <legend>{words.postingRules}</legend>
        {POSTING_RULES_MODES.map((mode) => (
          <p>
            <label>
              <input type="radio" name="postingRules" value={mode} checked={values.postingRules === mode} /> {words.modes[mode]}
            </label>
          </p>
        ))}
        <FieldError id="postingRules" message={errors.postingRules} />
      </fieldset>
      <button type="submit">{words.save}</button>
    </form>
  );
}

export function CurrentSettings(props: { lang: Lang; employer: Employer }) {
  const words = SETTINGS_WORDS[props.lang];
  const { employer } = props;
  return (
    <dl>
      <dt>{words.name}</dt>
      <dd>{employer.name}</dd>
      <dt>{words.ontarioEmployees}</dt>
      <dd>{employer.ontarioEmployees ?? words.unknown}</dd>
      <dt>{words.federal}</dt>
      <dd>{employer.federallyRegulated ? words.yes : words.no}</dd>
      <dt>{words.postingRules}</dt>
      <dd>{words.modes[employer.postingRules]}</dd>
    </dl>
  );
}
