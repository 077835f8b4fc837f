import { Hono } from "hono";
import { ConflictError, NotFoundError, ValidationError } from "../../http/problem";
import { IdParamSchema } from "../../http/schemas";
import { allowsInsecureWebhooks, ROTATION_OVERLAP_MS, urlProblem } from "../../webhooks/rules";
import { DeliveryQuerySchema, EndpointInputSchema, EndpointUpdateSchema, MessageParamsSchema } from "../../webhooks/schemas";
import {
  changeEndpoint,
  createEndpoint,
  deliveryLog,
  getEndpoint,
  listOwnEndpoints,
  removeEndpoint,
  retryDelivery,
  rotateSecret,
  sendTestEvent,
  type WebhookCaller,
} from "../../webhooks/service";
import * as z from "../../http/zod";
import { toFieldErrors } from "../../http/validation";
import { callerOf, type ConsoleContext, type ConsoleEnv } from "../context";
import { adminOnly, langOf, page } from "../render";
import { EndpointBody, EndpointsBody, SecretBody, valuesOf, type EndpointErrors, type EndpointField, type EndpointValues } from "./pages";
import { WEBHOOK_WORDS } from "./words";

// DESIGN 13, 25: webhook endpoints, for admins — the API's endpoints, delivery log, retries, test
// events and secret rotation through the same schemas and services. A secret is shown once, in
// the answer that made it; another employer's endpoint is a 404, as in the API.

export const webhookPages = new Hono<ConsoleEnv>();
// Hono's "/x/*" is "/x" too: every webhooks page and POST.
webhookPages.use("/employer/webhooks/*", adminOnly);

const caller = (c: ConsoleContext): WebhookCaller => ({ ...callerOf(c), env: c.env });
const OVERLAP_HOURS = ROTATION_OVERLAP_MS / 3_600_000;
const ALL_EVENTS = "all";
const NO_VALUES: EndpointValues = { url: "", all: true, events: [], description: "", enabled: true };

/** The path's endpoint id; not a number is not found (another employer's is, by the service). */
function endpointIdOf(c: ConsoleContext): number {
  const parsed = IdParamSchema.safeParse({ id: c.req.param("id") });
  if (!parsed.success) throw new NotFoundError();
  return parsed.data.id;
}

async function typedValues(c: ConsoleContext): Promise<EndpointValues> {
  const form = await c.req.parseBody({ all: true });
  const texts = (name: string) => [form[name]].flat().filter((value): value is string => typeof value === "string");
  const events = texts("events");
  return {
    url: (texts("url")[0] ?? "").trim(),
    all: events.includes(ALL_EVENTS),
    events: events.filter((type) => type !== ALL_EVENTS),
    description: (texts("description")[0] ?? "").trim(),
    enabled: form.enabled !== undefined,
  };
}

/** Each broken field's message, in the person's words; the API's rules decide which are broken. */
function errorsOf(c: ConsoleContext, fields: string[]): EndpointErrors {
  const words = WEBHOOK_WORDS[langOf(c)].errors;
  const errors: EndpointErrors = {};
  for (const field of fields) {
    const name = field.replace(/\[\d+\]$/, "") as EndpointField;
    errors[name] = words[name];
  }
  return errors;
}

/**
 * The typed values as the API's schema takes them, or every field refused: the schema's, and the
 * URL's rules (the service's own check, made here too so that all problems show at once). No box
 * ticked is refused: the API's `[]` means every type, which the form says with its own box.
 */
function inputOf<Schema extends z.ZodType>(c: ConsoleContext, schema: Schema, values: EndpointValues, extra: object = {}): { input: z.output<Schema> } | { errors: EndpointErrors } {
  const parsed = schema.safeParse({ url: values.url, events: values.all ? [] : values.events, description: values.description, ...extra });
  const fields = parsed.success ? [] : toFieldErrors(parsed.error.issues).map((error) => error.field);
  if (!fields.includes("url") && urlProblem(values.url, allowsInsecureWebhooks(c.env))) fields.push("url");
  if (!values.all && values.events.length === 0) fields.push("events");
  return parsed.success && fields.length === 0 ? { input: parsed.data } : { errors: errorsOf(c, fields) };
}

async function endpointsPage(c: ConsoleContext, form: { values: EndpointValues; errors?: EndpointErrors; problem?: string }, status: 200 | 409 | 422 = 200) {
  const lang = langOf(c);
  const endpoints = await listOwnEndpoints(caller(c));
  return page(c, WEBHOOK_WORDS[lang].title, <EndpointsBody lang={lang} endpoints={endpoints} {...form} deleted={c.req.query("deleted") !== undefined} />, status);
}

async function endpointPage(c: ConsoleContext, id: number, form: { values?: EndpointValues; errors?: EndpointErrors; confirmError?: string } = {}, status: 200 | 422 = 200) {
  const lang = langOf(c);
  const endpoint = await getEndpoint(caller(c), id);
  const query = DeliveryQuerySchema.safeParse(c.req.query());
  if (!query.success) throw new ValidationError(toFieldErrors(query.error.issues));
  const { data: deliveries, total } = await deliveryLog(caller(c), id, query.data);
  const notice = (["saved", "tested", "retried"] as const).find((name) => c.req.query(name) !== undefined);
  return page(
    c,
    WEBHOOK_WORDS[lang].endpointTitle(endpoint.url),
    <EndpointBody
      lang={lang}
      endpoint={endpoint}
      values={form.values ?? valuesOf(endpoint)}
      errors={form.errors}
      confirmError={form.confirmError}
      notice={notice}
      log={{ query: query.data, deliveries, total }}
      overlapHours={OVERLAP_HOURS}
    />,
    status,
  );
}

webhookPages.get("/employer/webhooks", (c) => endpointsPage(c, { values: NO_VALUES }));

webhookPages.post("/employer/webhooks", async (c) => {
  const values = await typedValues(c);
  const checked = inputOf(c, EndpointInputSchema, values);
  if ("errors" in checked) return endpointsPage(c, { values, errors: checked.errors }, 422);
  try {
    const { secret, ...endpoint } = await createEndpoint(caller(c), checked.input);
    return page(c, WEBHOOK_WORDS[langOf(c)].secretTitle, <SecretBody lang={langOf(c)} endpoint={endpoint} secret={secret} />);
  } catch (error) {
    if (!(error instanceof ConflictError && error.kind === "endpoint-limit")) throw error;
    return endpointsPage(c, { values, problem: WEBHOOK_WORDS[langOf(c)].limit }, 409);
  }
});

webhookPages.get("/employer/webhooks/:id", (c) => endpointPage(c, endpointIdOf(c)));

webhookPages.post("/employer/webhooks/:id", async (c) => {
  const id = endpointIdOf(c);
  const values = await typedValues(c);
  const checked = inputOf(c, EndpointUpdateSchema, values, { enabled: values.enabled });
  if ("errors" in checked) return endpointPage(c, id, { values, errors: checked.errors }, 422);
  await changeEndpoint(caller(c), id, checked.input);
  return c.redirect(`/employer/webhooks/${id}?saved`, 303);
});

webhookPages.post("/employer/webhooks/:id/test", async (c) => {
  const id = endpointIdOf(c);
  await sendTestEvent(caller(c), id);
  return c.redirect(`/employer/webhooks/${id}?tested`, 303);
});

webhookPages.post("/employer/webhooks/:id/rotate-secret", async (c) => {
  const lang = langOf(c);
  const { secret, ...endpoint } = await rotateSecret(caller(c), endpointIdOf(c));
  return page(c, WEBHOOK_WORDS[lang].rotatedTitle, <SecretBody lang={lang} endpoint={endpoint} secret={secret} rotatedHours={OVERLAP_HOURS} />);
});

webhookPages.post("/employer/webhooks/:id/delete", async (c) => {
  const id = endpointIdOf(c);
  const { confirm } = await c.req.parseBody();
  if (confirm !== "yes") return endpointPage(c, id, { confirmError: WEBHOOK_WORDS[langOf(c)].errors.confirm }, 422);
  await removeEndpoint(caller(c), id);
  return c.redirect("/employer/webhooks?deleted", 303);
});

webhookPages.post("/employer/webhooks/:id/deliveries/:messageId/retry", async (c) => {
  const parsed = MessageParamsSchema.safeParse(c.req.param());
  if (!parsed.success) throw new NotFoundError();
  await retryDelivery(caller(c), parsed.data.id, parsed.data.messageId);
  return c.redirect(`/employer/webhooks/${parsed.data.id}?retried`, 303);
});
