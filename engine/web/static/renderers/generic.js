// Any game without its own renderer: the state as text; every legal move becomes a button.
"use strict";

BoardRenderers.generic = {
  // Returns the set of move ids the board itself offers (none: the page shows them as buttons).
  render(container, session, ctx) {
    container.replaceChildren(el("pre", {class: "generic-board"}, session.text));
    return new Set();
  },
};
