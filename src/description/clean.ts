// TEMPORARY: replaced at merge by the real allow-list cleaner (DESIGN section 6). Until then
// every character that could start markup is escaped, so nothing unsafe is ever stored.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

export async function cleanDescription(html: string): Promise<string> {
  return html.replace(/[&<>"]/g, (ch) => ESCAPES[ch]);
}
