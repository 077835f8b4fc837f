import { descriptionOf } from "./seed.mjs";

const API = "/api/v1.1";

/** Like a real posting pasted from a word processor: mostly allowed tags, some that the cleaner must remove. */
export function dirtyDescriptionOf(bytes) {
  const block =
    '<h3 style="color:#333">What you will do</h3><p class="lead">Own the monthly close and work with ' +
    '<span class="hl">every team</span> across the company.</p><ul><li><b>Reconcile</b> accounts</li>' +
    '<li onclick="x()">Prepare reports</li><li><em>Mentor</em> juniors</li></ul>' +
    '<p>Questions? <a href="mailto:jobs@example.com" rel="nofollow">Write to us</a> or ' +
    '<a href="javascript:alert(1)">click</a>.</p><script>track("view")</script>' +
    "<table><tr><td>Salary</td><td>Competitive</td></tr></table><!-- tracking -->";
  let html = "";
  while (html.length < bytes) html += block;
  return html.slice(0, bytes);
}

export function newJobBody(description) {
  return {
    title: "Senior Accountant (bench)",
    status: "active",
    confidential: false,
    autoRefresh: false,
    locations: [{ description: "Toronto, ON" }],
    categories: [{ id: 1 }],
    positionType: { id: 1 },
    salary: { amount: 65000, maxAmount: 80000, type: { id: 1 }, plusCommission: false },
    description,
    applicantRoutingType: { id: 2 },
    applicationUrl: "https://careers.example.com/apply",
  };
}

function cycle(first, last) {
  let next = first;
  return () => {
    const id = next;
    next = next === last ? first : next + 1;
    return id;
  };
}

/**
 * Every operation the benchmark drives: what it sends, the status it must answer with, and
 * (for writes) a generator so that each request meets a different existing job.
 */
export function operations({ small, large, writes, deletes }) {
  const json = { "Content-Type": "application/json" };
  const auth = (employer) => ({ "API-Key": employer.apiKey });
  const postBody = JSON.stringify(newJobBody(dirtyDescriptionOf(5 * 1024)));
  const putId = cycle(writes.first, writes.last);
  const upsertId = cycle(writes.first, writes.last);
  const deleteId = cycle(deletes.first, deletes.last);
  const list = (employer, query) => ({ method: "GET", path: `${API}/jobs?${query}`, headers: auth(employer), expect: 200 });
  return {
    getOne: { method: "GET", path: `${API}/jobs/${large.first + Math.min(12345, large.last - large.first)}`, headers: auth(large), expect: 200 },
    listPage1Small: list(small, "page=1"),
    listPage1Large: list(large, "page=1"),
    listLastPageSmall: list(small, `page=${Math.ceil((small.last - small.first + 1) / 10)}`),
    listPage500Large: list(large, "page=500"),
    listQSmall: list(small, "q=accountant"),
    listQLarge: list(large, "q=accountant"),
    listStatusSmall: list(small, "status=active"),
    listStatusLarge: list(large, "status=active"),
    post: { method: "POST", path: `${API}/jobs`, headers: { ...auth(writes), ...json }, body: postBody, expect: 201 },
    putPartial: {
      method: "PUT",
      headers: { ...auth(writes), ...json },
      expect: 200,
      next: () => {
        const id = putId();
        return { path: `${API}/jobs/${id}`, body: JSON.stringify({ title: `Payroll Specialist ${id}` }) };
      },
    },
    putUpsert: {
      method: "PUT",
      path: `${API}/jobs`,
      headers: { ...auth(writes), ...json },
      expect: 200,
      next: () => {
        const n = upsertId() - writes.first + 1;
        const referenceId = `${writes.prefix}${String(n).padStart(6, "0")}`;
        return { body: JSON.stringify({ referenceId, status: "active", title: `Data Analyst ${n}` }) };
      },
    },
    delete: { method: "DELETE", headers: auth(deletes), expect: 204, next: () => ({ path: `${API}/jobs/${deleteId()}` }) },
    unauthorized: { method: "GET", path: `${API}/jobs/1`, headers: { "API-Key": "bench_not_a_key" }, expect: 401 },
  };
}

export { descriptionOf };
