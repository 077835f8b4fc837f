// DESIGN 18a: JSON-LD inside <script>: every <, > and & written as \u003c, \u003e, \u0026, so no
// value (a title holding `</script>` or `<!--<script>`) can change how the page parses.
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
