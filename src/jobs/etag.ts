// DESIGN 11. A job's ETag is made from its id and stored revision (not a hash of the body):
// it changes with every change of the job, whoever made it, and only then. A job answer also
// shows its owner's settings (the name, the posting rules' outcomes: DESIGN 19), so their
// revision is part of it too.

export function etagOf(job: { id: number; revision: number; employerRevision: number }): string {
  return `"${job.id}.${job.revision}.${job.employerRevision}"`;
}

/** An If-Match / If-None-Match header: `*`, or the entity tags it lists. */
export type Preconditions = { any: true } | { any: false; strong: string[]; weak: string[] };

const ENTITY_TAG = /^\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*$/;

/** Absent → undefined. Members that are not entity tags match nothing. */
export function parsePreconditions(header: string | undefined): Preconditions | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === "*") return { any: true };
  const strong: string[] = [];
  const weak: string[] = [];
  for (const member of header.split(",")) {
    const match = ENTITY_TAG.exec(member);
    if (match) (match[1] ? weak : strong).push(match[2]);
  }
  return { any: false, strong, weak };
}

/** If-Match uses the strong comparison: a weak tag never matches (RFC 9110 13.1.1). */
export function ifMatchPasses(condition: Preconditions, etag: string): boolean {
  return condition.any || condition.strong.includes(etag);
}

/** If-None-Match uses the weak comparison: `W/"x"` and `"x"` are the same tag here. */
export function ifNoneMatchHits(condition: Preconditions, etag: string): boolean {
  return condition.any || condition.strong.includes(etag) || condition.weak.includes(etag);
}
