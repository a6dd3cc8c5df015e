// The studio page: three views (compose, grid, arrow words) behind tabs, one status line.

import { ArrowPanel } from "./arrow.js";
import { ComposePanel } from "./compose.js";
import { GridEditor } from "./grideditor.js";
import { MAX_SIDE, MIN_SIDE } from "./gridmodel.js";
import { GridTools } from "./gridtools.js";
import { attach, say } from "./status.js";

const VIEWS = ["compose", "grid", "arrow"];

function showView(name) {
  for (const view of VIEWS) {
    const tab = document.querySelector(`#tab-${view}`);
    const panel = document.querySelector(`#view-${view}`);
    const on = view === name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    panel.hidden = !on;
  }
  const focus = { compose: "#compose-q", grid: "#grid", arrow: "#arrow-generate" }[name];
  document.querySelector(focus).focus();
}

function sizeOf(id) {
  const n = Math.round(Number(document.querySelector(id).value));
  if (!(n >= MIN_SIDE && n <= MAX_SIDE)) {
    throw new Error(`a grid side is ${MIN_SIDE} to ${MAX_SIDE} cells`);
  }
  return n;
}

function start() {
  attach(document.querySelector("#status"));
  const compose = new ComposePanel(document.querySelector("#view-compose"));
  let tools = null;
  const editor = new GridEditor(document.querySelector("#view-grid"), () => tools?.changed());
  tools = new GridTools(document.querySelector("#view-grid"), editor);
  new ArrowPanel(document.querySelector("#view-arrow"));
  document.querySelector("#grid-new").addEventListener("click", () => {
    try {
      editor.newGrid(sizeOf("#grid-width"), sizeOf("#grid-height"));
      editor.view.focus();
      say(`new ${editor.model.width}×${editor.model.height} grid (Ctrl+Z brings the old one back)`);
    } catch (err) { say(err); }
  });
  document.querySelector("#grid-undo").addEventListener("click", () => editor.undo());
  document.querySelector("#grid-redo").addEventListener("click", () => editor.redo());
  document.querySelector("#grid-lock").addEventListener("click", () => editor.lockEntry());
  VIEWS.forEach((view, k) => {
    document.querySelector(`#tab-${view}`).addEventListener("click", () => showView(view));
    document.addEventListener("keydown", (e) => {
      if (e.altKey && e.key === String(k + 1)) { e.preventDefault(); showView(view); }
    });
  });
  editor.changed();
  compose.input.focus();
  window.studio = { editor, tools, compose }; // for the browser tests and the console
  say("ready");
}

start();
