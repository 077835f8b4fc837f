import { createRoute } from "../http/openapi-hono";
import { requireJsonBody } from "../http/middleware/json-body";
import { problemResponses } from "../http/schemas";
import { API_PREFIX } from "../http/version";
import { EmployerSettingsInputSchema, EmployerSettingsSchema } from "./schemas";

const tags = ["Employer"];
const security = [{ ApiKey: [] }];
const PATH = `${API_PREFIX}/employer`;
const json = <T>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

export const getEmployerRoute = createRoute({
  method: "get",
  path: PATH,
  tags,
  security,
  operationId: "getEmployerSettings",
  summary: "Read your employer settings",
  description: "Your public name and the settings the posting rules read (docs/posting-rules.md).",
  responses: { 200: json(EmployerSettingsSchema, "Your settings.") },
});

export const updateEmployerRoute = createRoute({
  method: "put",
  path: PATH,
  tags,
  security,
  operationId: "updateEmployerSettings",
  summary: "Change your employer settings",
  description:
    "Partial: members not sent keep their value; `ontarioEmployees: null` means unknown again. A new name reaches the board " +
    "within seconds. Every job answer judges the posting rules by the current settings.",
  middleware: [requireJsonBody] as const,
  request: { body: { required: true, description: "The settings to change.", content: { "application/json": { schema: EmployerSettingsInputSchema } } } },
  responses: { 200: json(EmployerSettingsSchema, "Your settings, changed."), ...problemResponses(400, 403) },
});
