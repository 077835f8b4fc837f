import { request, type TestEmployer } from "./api";

/** The smallest valid create body; tests override what they check. */
export function jobBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Senior Accountant",
    locations: [{ description: "Vancouver, BC" }],
    categories: [{ id: 1 }],
    ...overrides,
  };
}

export async function postJob(employer: TestEmployer, overrides: Record<string, unknown> = {}) {
  const res = await request("/jobs", { method: "POST", apiKey: employer.apiKey, json: jobBody(overrides) });
  if (res.status !== 201) throw new Error(`POST /jobs answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
}
