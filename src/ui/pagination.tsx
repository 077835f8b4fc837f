// DESIGN 16b, 18: paging through a list on a page. A list stops at its page and names the next
// one with a cursor (section 17), so a page links forward only: the same query, and the cursor.

/** The address of the next page: the same parameters (those set), and the cursor. */
export function nextPageAddress(path: string, params: Record<string, string | undefined>, next: string): string {
  const query = new URLSearchParams(Object.entries({ ...params, cursor: next }).filter(([, value]) => value) as [string, string][]);
  return `${path}?${query}`;
}

/** The link to the next page (`rel="next"`), or nothing on the last one. */
export function NextPageLink(props: { href: string | null; label: string }) {
  return props.href ? (
    <p>
      <a href={props.href} rel="next">
        {props.label}
      </a>
    </p>
  ) : null;
}
