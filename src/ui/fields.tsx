import type { Child } from "hono/jsx";

// DESIGN 16b, 18: a form's field as every page shows it — a label, an optional hint, the control
// with the value the person typed, and the problem next to it, tied to the control
// (`aria-invalid`, `aria-describedby`) so a screen reader says it with the field (WCAG 3.3.1).

/** What a control carries to tie it to its hint and its problem; nothing when it has neither. */
interface FieldAria {
  "aria-invalid"?: "true";
  "aria-describedby"?: string;
}

/** The ids of a field's hint and its problem, from the control's id. */
const hintIdOf = (id: string) => `${id}-hint`;
const errorIdOf = (id: string) => `${id}-error`;

/** The attributes that tie a control (or a fieldset) to its problem, when it has one. */
export const tieToError = (id: string, error?: Child): FieldAria => (error ? { "aria-invalid": "true", "aria-describedby": errorIdOf(id) } : {});

/** A field's problem, next to it (a `strong`, or a `span` inside a line of text). */
export function FieldError(props: { id: string; message?: Child; inline?: boolean }) {
  if (!props.message) return null;
  return props.inline ? (
    <span id={errorIdOf(props.id)} class="error">
      {props.message}
    </span>
  ) : (
    <strong id={errorIdOf(props.id)} class="error">
      {props.message}
    </strong>
  );
}

/**
 * A labelled field in a paragraph: label, hint, the control (given the attributes that tie it to
 * its hint and problem, to spread on it), then the problem. The control keeps the person's value:
 * the caller gives it, as it came.
 */
export function Field(props: { id: string; label: Child; hint?: string; error?: Child; inline?: boolean; children: (aria: FieldAria) => Child }) {
  const describedBy = [props.hint ? hintIdOf(props.id) : "", props.error ? errorIdOf(props.id) : ""].filter(Boolean).join(" ") || undefined;
  const aria: FieldAria = { "aria-invalid": props.error ? "true" : undefined, "aria-describedby": describedBy };
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      {props.hint ? <small id={hintIdOf(props.id)}>{props.hint}</small> : null}
      {props.children(aria) as never}
      <FieldError id={props.id} message={props.error} inline={props.inline} />
    </p>
  );
}
