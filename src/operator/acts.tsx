import type { Child } from "hono/jsx";
import { OPERATOR_REASONS, type OperatorReason } from "../events/types";
import { Field } from "../ui/fields";
import type { Lang } from "../ui/i18n";

// DESIGN 26, 26a: what every act of the operator on a job or an employer asks — a reason from the
// list and a note — as one form, and its checks (422 with each message beside its field).

/** A note's length at most: a few paragraphs, enough to say why; the audit keeps it 7 years. */
export const NOTE_MAX = 2_000;

export const ACT_WORDS = {
  en: {
    reason: "Reason",
    reasons: { fraud: "Fraud", discrimination: "Discrimination", misleading: "Misleading", "not-a-job": "Not a job", other: "Other" } satisfies Record<OperatorReason, string>,
    choose: "Choose a reason",
    note: "Note",
    noteHint: `What the operator saw, for the audit (at most ${NOTE_MAX} characters).`,
    reasonInvalid: "Choose a reason from the list.",
    noteInvalid: `Keep the note to ${NOTE_MAX} characters at most.`,
  },
  fr: {
    reason: "Motif",
    reasons: { fraud: "Fraude", discrimination: "Discrimination", misleading: "Trompeuse", "not-a-job": "Pas un emploi", other: "Autre" } satisfies Record<OperatorReason, string>,
    choose: "Choisissez un motif",
    note: "Note",
    noteHint: `Ce que l'exploitant a constaté, pour le journal (au plus ${NOTE_MAX} caractères).`,
    reasonInvalid: "Choisissez un motif dans la liste.",
    noteInvalid: `Limitez la note à ${NOTE_MAX} caractères.`,
  },
} as const;

/** An act's form as it came. */
export interface ActForm {
  reason: string;
  note: string;
}
export type ActErrors = Partial<Record<keyof ActForm, string>>;

export const EMPTY_ACT: ActForm = { reason: "", note: "" };

const text = (value: unknown) => (typeof value === "string" ? value : "");
export const isOperatorReason = (value: string): value is OperatorReason => (OPERATOR_REASONS as readonly string[]).includes(value);

/** The form's fields from a parsed body. */
export const actFormOf = (body: Record<string, unknown>): ActForm => ({ reason: text(body.reason), note: text(body.note) });

/** The note's problem, if any (also for acts that ask no reason). */
export const noteError = (note: string, lang: Lang) => ([...note].length > NOTE_MAX ? ACT_WORDS[lang].noteInvalid : undefined);

/** The act as asked (the note trimmed, null when empty), or the form's problems in the operator's language. */
export function parseAct(form: ActForm, lang: Lang): { reason: OperatorReason; note: string | null } | { errors: ActErrors } {
  const errors: ActErrors = {};
  if (!isOperatorReason(form.reason)) errors.reason = ACT_WORDS[lang].reasonInvalid;
  const note = noteError(form.note, lang);
  if (note) errors.note = note;
  if (errors.reason || errors.note) return { errors };
  return { reason: form.reason as OperatorReason, note: noteOf(form) };
}

/** The note as the audit records it: trimmed, null when empty. */
export const noteOf = (form: { note: string }) => form.note.trim() || null;

/** The note's field; `prefix` keeps its id unique on a page of several forms. */
export function NoteField(props: { lang: Lang; prefix: string; value: string; error?: string }) {
  const words = ACT_WORDS[props.lang];
  const id = `${props.prefix}-note`;
  return (
    <Field id={id} label={words.note} hint={words.noteHint} error={props.error}>
      {(aria) => (
        <textarea id={id} name="note" rows={3} maxlength={NOTE_MAX} {...aria}>
          {props.value}
        </textarea>
      )}
    </Field>
  );
}

/** One act's form: a reason from the list, a note, the button (and `children` before it: a confirmation). */
export function ActFormView(props: { lang: Lang; action: string; prefix: string; button: string; danger?: boolean; form?: ActForm; errors?: ActErrors; children?: Child }) {
  const words = ACT_WORDS[props.lang];
  const form = props.form ?? EMPTY_ACT;
  const errors = props.errors ?? {};
  const id = `${props.prefix}-reason`;
  return (
    <form method="post" action={props.action}>
      <Field id={id} label={words.reason} error={errors.reason}>
        {(aria) => (
          <select id={id} name="reason" required {...aria}>
            <option value="" selected={!isOperatorReason(form.reason)}>
              {words.choose}
            </option>
            {OPERATOR_REASONS.map((reason) => (
              <option value={reason} selected={reason === form.reason}>
                {words.reasons[reason]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <NoteField lang={props.lang} prefix={props.prefix} value={form.note} error={errors.note} />
      {props.children}
      <p>
        <button type="submit" class={props.danger ? "danger" : undefined}>
          {props.button}
        </button>
      </p>
    </form>
  );
}
