/** What one stage of the cron reports: its counts, or the message of the error that stopped it. */
export type StageOutcome = { outcome: "ok"; [count: string]: unknown } | { outcome: "error"; error: string };

export type Stage = readonly [name: string, run: () => Promise<Record<string, unknown>>];

export interface StagesRun {
  stages: Record<string, StageOutcome>;
  /** The errors of the stages that failed, in run order. */
  errors: unknown[];
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs the stages one after the other, each on its own: a failing stage is recorded and the
 * next still runs, so one broken table or binding never stops the others' upkeep (a purge that
 * keeps failing must not starve the email sweep after it).
 */
export async function runStages(stages: readonly Stage[]): Promise<StagesRun> {
  const run: StagesRun = { stages: {}, errors: [] };
  for (const [name, stage] of stages) {
    try {
      run.stages[name] = { outcome: "ok", ...(await stage()) };
    } catch (error) {
      run.stages[name] = { outcome: "error", error: messageOf(error) };
      run.errors.push(error);
    }
  }
  return run;
}

/** The error an invocation fails with: the one stage's own, or all of them together. */
export function failureOf({ stages, errors }: StagesRun): unknown {
  if (errors.length <= 1) return errors[0];
  const failed = Object.entries(stages).flatMap(([name, stage]) => (stage.outcome === "error" ? [`${name}: ${stage.error}`] : []));
  return new AggregateError(errors, `${errors.length} scheduled stages failed (${failed.join("; ")})`);
}
