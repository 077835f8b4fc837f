// What the toolbar's buttons and the keyboard shortcuts do, and whether each is on where the
// cursor is (the buttons' aria-pressed).
import { toggleMark } from "prosemirror-commands";
import { liftListItem, wrapInList } from "prosemirror-schema-list";
import { safeHref, schema } from "./schema.js";

const { strong, em, link } = schema.marks;
const { bullet_list: bulletList, ordered_list: orderedList, list_item: listItem } = schema.nodes;

/** The nearest list around the selection: its node and position, or null. */
function listAround(state) {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type === bulletList || node.type === orderedList) return { node, pos: $from.before(depth) };
  }
  return null;
}

function markIsOn(state, type) {
  const { from, to, empty, $from } = state.selection;
  if (empty) return Boolean(type.isInSet(state.storedMarks ?? $from.marks()));
  return state.doc.rangeHasMark(from, to, type);
}

/** The list of this type on or off; a list of the other type becomes this one. */
function toggleList(type) {
  return (state, dispatch) => {
    const list = listAround(state);
    if (!list) return wrapInList(type)(state, dispatch);
    if (list.node.type === type) return liftListItem(listItem)(state, dispatch);
    if (dispatch) dispatch(state.tr.setNodeMarkup(list.pos, type));
    return true;
  };
}

/** The extent of the link at the cursor (the whole linked text, when the selection is empty). */
function linkRange(state) {
  const { from, to, empty, $from } = state.selection;
  if (!empty) return { from, to };
  const mark = link.isInSet($from.marks());
  if (!mark) return null;
  // The runs of text in the cursor's block that carry this link; the one the cursor is in.
  const runs = [];
  let run = null;
  let pos = $from.start();
  $from.parent.forEach((child) => {
    if (mark.isInSet(child.marks)) run = run ? { from: run.from, to: pos + child.nodeSize } : { from: pos, to: pos + child.nodeSize };
    else if (run) {
      runs.push(run);
      run = null;
    }
    pos += child.nodeSize;
  });
  if (run) runs.push(run);
  return runs.find((r) => r.from <= from && from <= r.to) ?? null;
}

/**
 * A link on the selection, asked for with the browser's own dialog; on a link already, takes it
 * off. An address the cleaner would drop is refused here, with the reason.
 */
function toggleLink(words) {
  return (state, dispatch) => {
    if (markIsOn(state, link)) {
      const range = linkRange(state);
      if (dispatch && range) dispatch(state.tr.removeMark(range.from, range.to, link));
      return true;
    }
    if (!dispatch) return true;
    const answer = window.prompt(words.linkPrompt, "https://");
    if (answer === null || answer.trim() === "" || answer.trim() === "https://") return true;
    const href = safeHref(answer);
    if (href === null) {
      window.alert(words.linkInvalid);
      return true;
    }
    const { from, to, empty } = state.selection;
    const mark = link.create({ href });
    dispatch(empty ? state.tr.insert(from, schema.text(answer.trim(), [mark])) : state.tr.addMark(from, to, mark));
    return true;
  };
}

/** The commands, with whether each is on at the selection. */
export function commandsOf(words) {
  return {
    bold: { run: toggleMark(strong), isOn: (state) => markIsOn(state, strong) },
    italic: { run: toggleMark(em), isOn: (state) => markIsOn(state, em) },
    bulletList: { run: toggleList(bulletList), isOn: (state) => listAround(state)?.node.type === bulletList },
    orderedList: { run: toggleList(orderedList), isOn: (state) => listAround(state)?.node.type === orderedList },
    link: { run: toggleLink(words), isOn: (state) => markIsOn(state, link) },
  };
}
