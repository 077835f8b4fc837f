// DESIGN 25: the job form's description editor. Each `textarea[data-rich-text]` of the page as
// served keeps working without this script (HTML typed by hand); with it, an editor takes the
// textarea's place and writes its HTML back into it on every change, so the form posts what it
// always did and the server cleans it as always: the editor is a convenience, never the guard.
// Its words come from this script element's data-* attributes, in the person's language.
import { baseKeymap } from "prosemirror-commands";
import { history, redo, undo } from "prosemirror-history";
import { keymap } from "prosemirror-keymap";
import { liftListItem, sinkListItem, splitListItem } from "prosemirror-schema-list";
import { EditorState } from "prosemirror-state";
import { EditorView } from "prosemirror-view";
import { commandsOf } from "./commands.js";
import { docOf, htmlOf, schema } from "./schema.js";

const words = document.currentScript.dataset;
const MAC = /Mac|iP(hone|[oa]d)/.test(navigator.platform);

/** The toolbar's buttons, in order, with their shortcuts (ProseMirror's names, and as aria-keyshortcuts says them). */
const BUTTONS = [
  { command: "bold", label: words.bold, keys: "Mod-b", say: "B" },
  { command: "italic", label: words.italic, keys: "Mod-i", say: "I" },
  { command: "bulletList", label: words.bulletList, keys: "Shift-Mod-8", say: "Shift+8" },
  { command: "orderedList", label: words.orderedList, keys: "Shift-Mod-7", say: "Shift+7" },
  { command: "link", label: words.link, keys: "Mod-k", say: "K" },
];

const lineBreak = (state, dispatch) => {
  if (dispatch) dispatch(state.tr.replaceSelectionWith(schema.nodes.hard_break.create()).scrollIntoView());
  return true;
};

for (const textarea of document.querySelectorAll("textarea[data-rich-text]")) enhance(textarea);

function enhance(textarea) {
  const label = document.querySelector(`label[for="${textarea.id}"]`);
  if (label && !label.id) label.id = `${textarea.id}-label`;
  const commands = commandsOf(words);

  const editor = document.createElement("div");
  editor.className = "editor";
  const toolbar = document.createElement("div");
  toolbar.setAttribute("role", "toolbar");
  toolbar.setAttribute("aria-label", `${words.toolbar} ${label?.textContent.trim() ?? ""}`.trim());
  toolbar.setAttribute("aria-controls", `${textarea.id}-editor`);
  toolbar.className = "editor-toolbar";
  const buttons = BUTTONS.map((spec, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = spec.label;
    button.dataset.command = spec.command;
    button.tabIndex = i === 0 ? 0 : -1;
    button.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-keyshortcuts", `${MAC ? "Meta" : "Control"}+${spec.say}`);
    // The editor keeps its selection: the button acts on it, then hands the focus back.
    button.addEventListener("mousedown", (event) => event.preventDefault());
    button.addEventListener("click", () => {
      commands[spec.command].run(view.state, view.dispatch);
      view.focus();
    });
    toolbar.append(button);
    return button;
  });
  // One tab stop for the whole toolbar; the arrows, Home and End move along it (WAI-ARIA toolbar).
  toolbar.addEventListener("keydown", (event) => {
    const at = buttons.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
    if (at < 0 || to === undefined) return;
    event.preventDefault();
    moveToolbarFocus((to + buttons.length) % buttons.length);
  });
  const moveToolbarFocus = (index) => {
    for (const [i, button] of buttons.entries()) button.tabIndex = i === index ? 0 : -1;
    buttons[index].focus();
  };

  const area = document.createElement("div");
  const shortcuts = Object.fromEntries(BUTTONS.map((spec) => [spec.keys, commands[spec.command].run]));
  const attributes = {
    id: `${textarea.id}-editor`,
    class: "editor-area",
    role: "textbox",
    "aria-multiline": "true",
    ...(label && { "aria-labelledby": label.id }),
    ...Object.fromEntries(["aria-describedby", "aria-invalid", "lang"].filter((name) => textarea.hasAttribute(name)).map((name) => [name, textarea.getAttribute(name)])),
  };
  const view = new EditorView(area, {
    state: EditorState.create({
      doc: docOf(textarea.value),
      plugins: [
        history(),
        keymap({
          ...shortcuts,
          "Mod-z": undo,
          "Shift-Mod-z": redo,
          "Mod-y": redo,
          Enter: splitListItem(schema.nodes.list_item),
          "Mod-[": liftListItem(schema.nodes.list_item),
          "Mod-]": sinkListItem(schema.nodes.list_item),
          "Shift-Enter": lineBreak,
          // Alt+F10 to the toolbar, as in other editors; Tab always leaves the editor.
          "Alt-F10": () => {
            moveToolbarFocus(Math.max(0, buttons.findIndex((button) => button.tabIndex === 0)));
            return true;
          },
        }),
        keymap(baseKeymap),
      ],
    }),
    attributes,
    dispatchTransaction(transaction) {
      const state = view.state.apply(transaction);
      view.updateState(state);
      if (transaction.docChanged) textarea.value = htmlOf(state.doc);
      showState(state);
    },
  });
  const showState = (state) => {
    for (const [i, spec] of BUTTONS.entries()) buttons[i].setAttribute("aria-pressed", String(commands[spec.command].isOn(state)));
  };
  showState(view.state);

  editor.append(toolbar, view.dom);
  // The field's hint speaks of HTML typed by hand; with the editor, of what it keeps.
  const hint = document.getElementById(`${textarea.id}-hint`);
  if (hint && words.hint) hint.textContent = words.hint;
  textarea.hidden = true;
  textarea.after(editor);
  // The label and the error summary's link name the textarea, now hidden: they lead to the editor.
  const focusEditor = (event) => {
    event.preventDefault();
    view.focus();
    view.dom.scrollIntoView({ block: "center" });
  };
  label?.addEventListener("click", focusEditor);
  for (const link of document.querySelectorAll(`a[href="#${CSS.escape(textarea.id)}"]`)) link.addEventListener("click", focusEditor);
}
