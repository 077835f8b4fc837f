import { beginAct, endAct, type Act } from "../accounts/audit";
import type { OperatorContext } from "./context";

// DESIGN 26: "A console write without its record does not happen." An act in an employer's shard
// (it cannot share a batch with ACCOUNTS_DB, where the audit is) is recorded first, as `pending`;
// then done; then its record says `done` (naming what it made, when that was unknown before) or
// `failed`. Acts written in ACCOUNTS_DB itself carry their record in their own batch
// (src/accounts/audit.ts actStatement). Every act of the console goes through one or the other.

/** Runs `act` (a write outside ACCOUNTS_DB) with its record; what it returns, or its error once recorded as failed. */
export async function audited<T>(c: OperatorContext, record: Omit<Act, "operator">, act: () => Promise<T>, targetOf?: (result: T) => string): Promise<T> {
  const id = await beginAct(c.env, { ...record, operator: c.get("operator") });
  let result: T;
  try {
    result = await act();
  } catch (error) {
    await endAct(c.env, id, "failed").catch(logUnended);
    throw error;
  }
  // The act is done: a record that cannot be ended now stays `pending`, which says it may have been.
  await endAct(c.env, id, "done", targetOf?.(result)).catch(logUnended);
  return result;
}

function logUnended(error: unknown) {
  console.error(JSON.stringify({ level: "error", message: "operator act's record left pending", error: String(error) }));
}
