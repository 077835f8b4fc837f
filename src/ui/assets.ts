// The pages' static assets (DESIGN 18): one small stylesheet (no web fonts) and the site's icon.
// Each address names its content, so browsers keep them for a year and a change is a new address.

export const STYLESHEET = `
:root{color-scheme:light;--ink:#1a1a1a;--muted:#4a4a4a;--line:#d0d0d0;--accent:#0b5394}
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
header,main,footer{max-width:46rem;margin:0 auto;padding:1rem}
header{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid var(--line)}
a{color:var(--accent)}
a:focus,button:focus,input:focus,select:focus,textarea:focus,summary:focus{outline:3px solid #f9a825;outline-offset:2px}
h1{font-size:1.6rem;line-height:1.25}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600;color:var(--muted)}
dd{margin:0}
.description{border-top:1px solid var(--line);margin-top:1rem;padding-top:1rem}
.apply{display:inline-block;margin-top:1rem;padding:.6rem 1rem;border-radius:.3rem;background:var(--accent);color:#fff;text-decoration:none}
footer{border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
label,legend{display:block;font-weight:600;margin-bottom:.25rem}
fieldset label{display:inline-block;font-weight:400;margin-right:1.25rem}
fieldset{border:1px solid var(--line);border-radius:.3rem;margin:0 0 1rem}
input:not([type=radio]):not([type=checkbox]):not([type=file]),select,textarea{display:block;width:100%;max-width:32rem;padding:.45rem;font:inherit;border:1px solid #767676;border-radius:.3rem}
small{display:block;color:var(--muted)}
button{font:inherit;padding:.55rem 1.1rem;border:0;border-radius:.3rem;background:var(--accent);color:#fff;cursor:pointer}
.error{color:#b00020}
.search-row{display:flex;flex-wrap:wrap;align-items:flex-end;gap:0 1rem}
.search-row>p{flex:1 1 13rem;margin:0 0 .75rem}
.search-row>p.search-submit{flex:0 0 auto}
.filters{border:1px solid var(--line);border-radius:.3rem;padding:.25rem .75rem;margin:0 0 .5rem}
.filters summary{cursor:pointer;font-weight:600;padding:.3rem 0}
.filters p{margin:0 0 .75rem}
.filter-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:0 1rem}
.alert-form{border-top:1px solid var(--line);margin-top:1.5rem}
.results{list-style:none;padding:0}
.results li{border-top:1px solid var(--line);padding:.5rem 0}
.results h3{margin:.25rem 0}
.console header,.console main,.console footer{max-width:64rem}
.console nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.console nav a[aria-current=page]{font-weight:700}
.inline{display:inline}
button.link{background:none;color:var(--accent);padding:0;text-decoration:underline}
button.danger{background:#b00020}
.table-scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{text-align:left;border-bottom:1px solid var(--line);padding:.4rem .5rem;vertical-align:top}
.notice{border-left:4px solid var(--accent);padding:.5rem 1rem;background:#f1f6fb}
.warning{border-left:4px solid #8a5a00;padding:.5rem 1rem;background:#fff7e6}
textarea[hidden]{display:none}
.editor{max-width:32rem}
.editor-toolbar{display:flex;flex-wrap:wrap;gap:.25rem;margin-bottom:.25rem}
.editor-toolbar button{padding:.3rem .7rem;background:#fff;color:var(--ink);border:1px solid #767676}
.editor-toolbar button[aria-pressed=true]{background:var(--accent);color:#fff;border-color:var(--accent)}
.editor-area{position:relative;min-height:12rem;padding:.1rem .6rem;border:1px solid #767676;border-radius:.3rem;white-space:pre-wrap;white-space:break-spaces;word-wrap:break-word;font-variant-ligatures:none}
.editor-area:focus{outline:3px solid #f9a825;outline-offset:2px}
.editor-area[aria-invalid=true]{border-color:#b00020}
.editor-area li{position:relative}
.editor-area li>p{margin:0}
`.trim();

/** The site's icon (a browser asks for one on every site; without it, a 404 in the console). */
export const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b5394"/><path d="M9 12h14v11H9z" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M13 12V9h6v3" fill="none" stroke="#fff" stroke-width="2.5"/></svg>`;

/** FNV-1a of the text, 8 hex digits: enough to tell versions of one file apart, and synchronous. */
function versionOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export const STYLESHEET_PATH = `/site.${versionOf(STYLESHEET)}.css`;
export const ICON_PATH = `/icon.${versionOf(ICON)}.svg`;
export const ASSET_HEADERS = { "Cache-Control": "public, max-age=31536000, immutable" };
