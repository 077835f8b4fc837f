import { readdirSync, readFileSync } from "node:fs";

// CPU time of the workerd processes this harness started (Linux /proc), so that a measure of
// pure computation inside workerd is not moved by other work on a shared machine the way wall
// time is. Resolution: one clock tick (10 ms); callers time work much longer than that.

function statOf(pid) {
  try {
    // Fields after the command name: state, ppid, …, utime (12th), stime (13th), in ticks.
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  } catch {
    return null;
  }
}

/** CPU milliseconds used so far by this process's child processes (workerd), or null off Linux. */
export function childCpuMs() {
  let pids;
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    const stat = statOf(pid);
    if (stat && stat[1] === String(process.pid)) ticks += Number(stat[11]) + Number(stat[12]);
  }
  return ticks * 10;
}
