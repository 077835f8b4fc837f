// TEMPORARY: replaced at merge by the real allow-list cleaner (DESIGN section 6). Until then
// every character that could start markup is escaped, so nothing unsafe is ever stored.
// An `&` that already starts an entity is kept, so cleaning twice changes nothing.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

export async function cleanDescription(html: string): Promise<string> {
  return html.replace(/&(?![a-z][a-z0-9]*;|#[0-9]+;|#x[0-9a-f]+;)|[<>"]/gi, (ch) => ESCAPES[ch]);
}
