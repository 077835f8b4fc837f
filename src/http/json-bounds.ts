import type { FieldError } from "./problem";
import { fieldPath } from "./validation";

// DESIGN 6b: bounds on the shape of any JSON body, checked once where bodies are read, before
// anything walks them (validation, the Idempotency-Key's canonical JSON, the cleaner).

/** Objects and arrays within each other, the body itself being the first level. */
export const MAX_JSON_DEPTH = 64;
/** As many as a problem document lists (its `errors` member). */
const MAX_REPORTED = 1_000;
/** A problem's `field` holds at most this many characters; a longer path names an ancestor. */
const MAX_FIELD_LENGTH = 300;

const TOO_DEEP = `is nested deeper than ${MAX_JSON_DEPTH} levels (objects and arrays within each other); at most ${MAX_JSON_DEPTH} are allowed.`;
const UNPAIRED = "holds an unpaired surrogate (a \\ud800-\\udfff escape without its pair), which is not text; send well-formed Unicode.";
const UNPAIRED_NAME = "has a member name with an unpaired surrogate (a \\ud800-\\udfff escape without its pair); send well-formed Unicode.";

// Read by code points, a well-formed pair is one character: only an unpaired half is a surrogate.
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;
/** Whether `text` is well-formed UTF-16, i.e. can be written as UTF-8 and read back unchanged. */
export const isWellFormed = (text: string) => !UNPAIRED_SURROGATE.test(text);

/** A place in the body: the member or item `key` of its parent (the body itself has none). */
interface Place {
  readonly key?: string | number;
  readonly parent?: Place;
  readonly depth: number;
}

/**
 * Every place in a parsed JSON body that breaks a bound: a value nested deeper than 64 levels
 * (named where it starts, and not read further), a string or member name holding an unpaired
 * surrogate. Iterative, and each value costs the same whatever its depth.
 */
export function jsonBoundErrors(body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const report = (place: Place, sentence: string) => {
    const field = reportable(pathOf(place));
    errors.push({ field: field || "body", message: `${field || "The body"} ${sentence}` });
  };
  // Depth-first in document order, so the errors read as the body does.
  const pending: [unknown, Place][] = [[body, { depth: 0 }]];
  while (pending.length > 0 && errors.length < MAX_REPORTED) {
    const [value, place] = pending.pop()!;
    if (typeof value === "string") {
      if (!isWellFormed(value)) report(place, UNPAIRED);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (place.depth === MAX_JSON_DEPTH) {
      report(place, TOO_DEEP);
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
    if (!Array.isArray(value) && entries.some(([name]) => !isWellFormed(name as string))) report(place, UNPAIRED_NAME);
    const depth = place.depth + 1;
    for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], { key: entries[i][0], parent: place, depth }]);
  }
  return errors;
}

function pathOf(place: Place): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Place | undefined = place; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** The member's path, or its nearest ancestor's where member names make it too long (or unfit) to quote. */
function reportable(path: readonly (string | number)[]): string {
  for (let length = path.length; length > 0; length--) {
    const field = fieldPath(path.slice(0, length));
    if (field.length <= MAX_FIELD_LENGTH && isWellFormed(field)) return field;
  }
  return "";
}
