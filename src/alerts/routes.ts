import { createRoute } from "../http/openapi-hono";
import { requireJsonBody } from "../http/middleware/json-body";
import { problemResponses } from "../http/schemas";
import { API_PREFIX } from "../http/version";
import { AlertAcceptedSchema, AlertInputSchema } from "./schemas";

/** DESIGN 23a: the addresses in alert emails (each followed by a token); the pages' forms POST to the same ones. */
export const ALERT_PAGES = {
  confirm: "/alerts/confirm",
  /** "This was not me": the confirmation email's second link (the confirm token), deleting the pending alert. */
  decline: "/alerts/decline",
  unsubscribe: "/alerts/unsubscribe",
  manage: "/alerts/manage",
  feed: "/alerts/feed",
} as const;
/** The search pages' alert form posts here (DESIGN 23a), and is answered 303 to the "check your mailbox" page. */
export const ALERT_FORM = { en: "/alerts", fr: "/fr/alertes" } as const;
export const CHECK_MAILBOX = { en: "/alerts/check-your-mailbox", fr: "/fr/alertes/verifiez-vos-courriels" } as const;

export const createAlertRoute = createRoute({
  method: "post",
  path: `${API_PREFIX}/alerts`,
  tags: ["Job board"],
  security: [],
  operationId: "createJobAlert",
  summary: "Ask for a job alert (double opt-in)",
  description:
    "A saved search emailed to a job seeker (DESIGN 23). Nothing is sent but one confirmation email, whose link starts the alert. The answer is the same whether or not the address already has alerts, and past the per-address limits (20 alerts, 3 confirmation emails a day) nothing is sent. At most 10 requests per 60 s per client address.",
  middleware: [requireJsonBody] as const,
  request: { body: { required: true, description: "The address, the schedule, consent, and the search.", content: { "application/json": { schema: AlertInputSchema } } } },
  responses: {
    202: { description: "Accepted: check the mailbox.", content: { "application/json": { schema: AlertAcceptedSchema } } },
    ...problemResponses(400, 415, 429),
  },
});
