import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { buildPaging, publicOrigin } from "../http/paging";
import { ValidationError } from "../http/problem";
import { toFieldErrors, validationHook } from "../http/validation";
import { listJobs } from "./repository";
import { toJob, toJobHeader } from "./representation";
import {
  createJobRoute,
  deleteJobByReferenceRoute,
  deleteJobRoute,
  getJobRoute,
  listJobsRoute,
  putJobByReferenceRoute,
  updateJobRoute,
} from "./routes";
import { createJob, getJob, putJobByReference, removeJob, ruleErrorsBesides, updateJobById, type BodyTarget } from "./service";

const locationOf = (c: Context<AppEnv>, id: number) => `${publicOrigin(c)}/api/v1.1/jobs/${id}`;

type ValidationResult =
  | { success: true }
  | { success: false; error: { issues: Parameters<typeof toFieldErrors>[0] }; target: string };

/**
 * A job body that fails on member types is also checked against the whole-job rules, so one
 * 400 names every broken rule. `targetOf` says which job the body was meant for.
 */
function jobBodyHook(targetOf: (c: Context<AppEnv>, body: Record<string, unknown>) => BodyTarget | undefined) {
  return (result: ValidationResult, c: Context<AppEnv>): Promise<never> | undefined => {
    if (result.success) return undefined;
    const errors = toFieldErrors(result.error.issues);
    if (result.target !== "json") throw new ValidationError(errors);
    return c.req.json().then(async (body) => {
      const target = body && typeof body === "object" ? targetOf(c, body) : undefined;
      const more = target ? await ruleErrorsBesides(c.var.db, c.var.employerId, target, body, errors) : [];
      throw new ValidationError([...errors, ...more]);
    });
  };
}

const creating = jobBodyHook(() => ({ create: true }));
const updatingById = jobBodyHook((c) => ({ id: Number(c.req.param("id")) }));
const puttingByReference = jobBodyHook((_, body) =>
  typeof body.referenceId === "string" && body.referenceId !== "" ? { referenceId: body.referenceId } : undefined,
);

export const jobsApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(getJobRoute, async (c) => {
    const row = await getJob(c.var.db, c.var.employerId, c.req.valid("param").id);
    return c.json(toJob(row), 200);
  })
  .openapi(listJobsRoute, async (c) => {
    const { q, status, page, pageSize } = c.req.valid("query");
    const { rows, total } = await listJobs(c.var.db, c.var.employerId, { q: q || undefined, status, page, pageSize });
    return c.json({ data: rows.map(toJobHeader), paging: buildPaging(c, total, page, pageSize) }, 200);
  })
  .openapi(createJobRoute, async (c) => {
    const row = await createJob(c.var.db, c.var.employerId, c.req.valid("json"));
    c.header("Location", locationOf(c, row.id));
    return c.json(toJob(row), 201);
  }, creating)
  .openapi(updateJobRoute, async (c) => {
    const row = await updateJobById(c.var.db, c.var.employerId, c.req.valid("param").id, c.req.valid("json"));
    return c.json(toJob(row), 200);
  }, updatingById)
  .openapi(putJobByReferenceRoute, async (c) => {
    const { row, created } = await putJobByReference(c.var.db, c.var.employerId, c.req.valid("json"));
    if (!created) return c.json(toJob(row), 200);
    c.header("Location", locationOf(c, row.id));
    return c.json(toJob(row), 201);
  }, puttingByReference)
  .openapi(deleteJobRoute, async (c) => {
    await removeJob(c.var.db, c.var.employerId, { id: c.req.valid("param").id });
    return c.body(null, 204);
  })
  .openapi(deleteJobByReferenceRoute, async (c) => {
    await removeJob(c.var.db, c.var.employerId, { referenceId: c.req.valid("json").referenceId });
    return c.body(null, 204);
  });
