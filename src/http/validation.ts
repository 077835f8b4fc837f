import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import type { AppEnv } from "../env";
import { ValidationError, type FieldError } from "./problem";

type Issue = z.core.$ZodIssue;

/** `["locations", 1, "description"]` → `locations[1].description`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === "number") return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, "");
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** What is wrong, as a sentence that starts after the field's name. */
function describe(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      // zod 4 leaves `input` out of issues unless asked; its message still names what came.
      if (issue.input === undefined && /received undefined/.test(issue.message)) return "is required.";
      if (issue.input === null || /received null/.test(issue.message)) return "must not be null.";
      return `must be ${issue.expected === "int" ? "an integer" : `a ${issue.expected}`}.`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${plural(Number(issue.maximum), "character")}.`;
      if (issue.origin === "array") return `allows at most ${plural(Number(issue.maximum), "item")}.`;
      return `must be at most ${issue.maximum}.`;
    case "too_small":
      if (issue.origin === "string") {
        return issue.minimum === 1 ? "must not be empty." : `must be at least ${plural(Number(issue.minimum), "character")}.`;
      }
      if (issue.origin === "array") return `needs at least ${plural(Number(issue.minimum), "item")}.`;
      return `must be at least ${issue.minimum}.`;
    case "invalid_value":
      return `must be one of: ${issue.values.map((v) => String(v)).join(", ")}.`;
    case "invalid_format":
      return issue.format === "email" ? "must be a valid email address." : `must be a valid ${issue.format}.`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}.`;
    default:
      return issue.message.endsWith(".") ? issue.message : `${issue.message}.`;
  }
}

export function toFieldErrors(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): FieldError[] {
  return issues.map((issue) => {
    const field = fieldPath([...prefix, ...issue.path]);
    // A schema's own message (refinements, patterns) already reads as a full sentence; a
    // library's default wording ("must be a valid regex") never reaches a person.
    const ownSentence = issue.code === "custom" || (issue.code === "invalid_format" && issue.format === "regex");
    const message = ownSentence ? issue.message : `${field || "The body"} ${describe(issue)}`;
    return { field: field || "body", message };
  });
}

/** Every request schema fails through here, so all validation errors share one shape. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) throw new ValidationError(toFieldErrors(result.error.issues));
};
