import type { z } from "zod";
import { isJsonObject } from "./documented-object";

type Issue = z.core.$ZodIssue;
type AnySchema = z.ZodType;

export interface PartialParse<T> {
  /** The members that parsed (others are absent), with their transforms applied. */
  data: Partial<T>;
  /** Every member's issues, with full paths from the body's root. */
  issues: Issue[];
}

/** The object schema inside `optional`/`nullable` wrappers, if there is one. */
function objectShape(schema: AnySchema): Record<string, AnySchema> | undefined {
  let def = (schema as unknown as { _zod: { def: { type: string; innerType?: AnySchema; shape?: Record<string, AnySchema> } } })._zod.def;
  while ((def.type === "optional" || def.type === "nullable") && def.innerType) {
    def = (def.innerType as unknown as { _zod: { def: typeof def } })._zod.def;
  }
  return def.type === "object" ? def.shape : undefined;
}


function parseValue(schema: AnySchema, value: unknown, path: PropertyKey[]): { ok: boolean; data?: unknown; issues: Issue[] } {
  const shape = objectShape(schema);
  if (shape && isJsonObject(value)) {
    const data: Record<string, unknown> = {};
    const issues: Issue[] = [];
    for (const [key, member] of Object.entries(shape)) {
      const result = parseValue(member, value[key], [...path, key]);
      issues.push(...result.issues);
      if (result.ok && result.data !== undefined) data[key] = result.data;
    }
    return { ok: true, data, issues };
  }
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data, issues: [] };
  return { ok: false, issues: result.error.issues.map((issue) => ({ ...issue, path: [...path, ...issue.path] })) };
}

/**
 * Parses an object member by member (and nested objects likewise), keeping every member that
 * is valid and the issues of every one that is not. So one evaluation of a request can report
 * a wrong type and the rules the valid members break together (DESIGN 5): in
 * `{"salary": {"amount": "x", "type": {"id": 99}}}`, `salary.type.id` still reaches the rules.
 * Unknown members are ignored, as the object schema would strip them.
 */
export function parseMembers<S extends z.ZodObject>(schema: S, body: Record<string, unknown>): PartialParse<z.output<S>> {
  const { data, issues } = parseValue(schema, body, []);
  return { data: (data ?? {}) as Partial<z.output<S>>, issues };
}
