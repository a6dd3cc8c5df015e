// The grid editor: the grid drawn as cells, the cursor and its direction, the selected
// region, and the keys constructors expect (arrows move, Tab/Space turn, letters type,
// "." or "#" a block, Ctrl+Z/Ctrl+Y undo and redo, Ctrl+L locks the entry).

import { ACROSS, DOWN, EMPTY, GridModel, asLetter, inRegion, spanned } from "./gridmodel.js";
import { say } from "./status.js";

const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

export class GridEditor {
  constructor(root, onChange) {
    this.root = root;
    this.view = root.querySelector("#grid");
    this.onChange = onChange; // called after every change of grid, cursor or direction
    this.model = new GridModel(5, 5);
    this.cursor = [0, 0];
    this.dir = ACROSS;
    this.anchor = null; // the other corner of the selected region, or null
    this.ghost = null; // a running fill's partial rows, drawn faint
    this.view.addEventListener("keydown", (e) => this.onKey(e));
    this.view.addEventListener("mousedown", (e) => this.onClick(e));
  }

  get symmetry() { return this.root.querySelector("#symmetry").value; }
  get clickMode() { return this.root.querySelector("input[name=click]:checked").value; }

  /** The selected region, or null when none. */
  get region() { return this.anchor ? spanned(this.anchor, this.cursor) : null; }

  /** The slot under the cursor in its direction (the other one where that is no slot). */
  currentSlot() {
    const [r, c] = this.cursor;
    return this.model.slotAt(r, c, this.dir)
      ?? this.model.slotAt(r, c, this.dir === ACROSS ? DOWN : ACROSS);
  }

  newGrid(width, height) {
    this.model.resize(width, height);
    this.cursor = [0, 0];
    this.anchor = null;
    this.changed();
  }

  changed() {
    const [r, c] = this.cursor;
    this.cursor = [Math.min(r, this.model.height - 1), Math.min(c, this.model.width - 1)];
    this.render();
    this.onChange();
  }

  /** Run a model edit, saying its Error instead of throwing it. */
  apply(edit) {
    try {
      edit();
    } catch (err) {
      say(err);
    }
    this.changed();
  }

  undo() { if (!this.model.undo()) say("nothing to undo"); this.changed(); }
  redo() { if (!this.model.redo()) say("nothing to redo"); this.changed(); }

  onClick(event) {
    const cell = event.target.closest(".cell");
    if (!cell) return;
    this.ghost = null;
    event.preventDefault();
    this.view.focus();
    const at = [Number(cell.dataset.r), Number(cell.dataset.c)];
    if (event.ctrlKey || event.metaKey || this.clickMode === "block") {
      this.cursor = at;
      this.apply(() => this.model.toggleBlock(at[0], at[1], this.symmetry));
      return;
    }
    if (event.shiftKey) {
      this.anchor = this.anchor ?? this.cursor;
    } else if (at[0] === this.cursor[0] && at[1] === this.cursor[1]) {
      this.dir = this.dir === ACROSS ? DOWN : ACROSS; // a second click turns, as in most tools
      this.anchor = null;
    } else {
      this.anchor = null;
    }
    this.cursor = at;
    this.changed();
  }

  onKey(event) {
    if (!event.altKey) this.ghost = null;
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key;
    const letter = !ctrl && !event.altKey ? asLetter(key) : null;
    if (ctrl && (key === "z" || key === "Z")) {
      if (event.shiftKey) this.redo(); else this.undo();
    } else if (ctrl && (key === "y" || key === "Y")) {
      this.redo();
    } else if (ctrl && (key === "l" || key === "L")) {
      this.lockEntry();
    } else if (ctrl) {
      return; // the browser's own shortcuts (copy, reload) stay
    } else if (key in MOVES) {
      this.move(MOVES[key], event.shiftKey);
    } else if (key === "Tab" || key === " ") {
      this.dir = this.dir === ACROSS ? DOWN : ACROSS;
      this.changed();
    } else if (key === "." || key === "#") {
      const [r, c] = this.cursor;
      this.apply(() => this.model.toggleBlock(r, c, this.symmetry));
    } else if (key === "Backspace" || key === "Delete") {
      this.erase(key === "Backspace");
    } else if (key === "Escape") {
      this.anchor = null;
      this.changed();
    } else if (letter) {
      this.type(letter);
    } else {
      return;
    }
    event.preventDefault();
  }

  move([dr, dc], extend) {
    if (extend) this.anchor = this.anchor ?? this.cursor;
    else this.anchor = null;
    const [r, c] = this.cursor;
    const next = [r + dr, c + dc];
    if (this.model.inside(...next)) this.cursor = next;
    if (!extend) this.dir = dr ? DOWN : ACROSS;
    this.changed();
  }

  /** The next cell along the direction, or null at the edge. */
  along(step) {
    const [r, c] = this.cursor;
    const [dr, dc] = this.dir === ACROSS ? [0, step] : [step, 0];
    return this.model.inside(r + dr, c + dc) ? [r + dr, c + dc] : null;
  }

  type(letter) {
    const [r, c] = this.cursor;
    if (this.model.isBlock(r, c)) {
      say(new Error("that cell is a block: press . to open it"));
      return;
    }
    const slot = this.model.slotAt(r, c, this.dir);
    this.apply(() => this.model.setLetter(r, c, letter));
    const next = this.along(1);
    if (next && !this.model.isBlock(...next)) {
      this.cursor = next;
    } else if (slot) {
      // the entry's last cell: on to the next entry, at its first empty cell, as Crosshare
      // and Exet do (staying put would make the next letter overwrite this one)
      const after = this.model.nextSlot(slot);
      if (after) {
        this.dir = after.dir;
        this.cursor = after.cells.find(([rr, cc]) => this.model.at(rr, cc) === EMPTY)
          ?? after.cells[0];
      }
    }
    this.changed();
  }

  erase(backward) {
    const [r, c] = this.cursor;
    const here = !this.model.isBlock(r, c) && this.model.at(r, c) !== EMPTY;
    if (backward && !here) {
      const back = this.along(-1);
      if (back && !this.model.isBlock(...back)) this.cursor = back;
    }
    const [rr, cc] = this.cursor;
    if (!this.model.isBlock(rr, cc) && this.model.at(rr, cc) !== EMPTY) {
      this.apply(() => this.model.setLetter(rr, cc, EMPTY));
    } else {
      this.changed();
    }
  }

  lockEntry() {
    const slot = this.currentSlot();
    if (!slot) { say(new Error("the cursor is in no entry")); return; }
    this.apply(() => this.model.toggleLock(slot));
  }

  // -- drawing ------------------------------------------------------------------------------

  render() {
    const { model } = this;
    const numbers = model.numbers();
    const slot = this.currentSlot();
    const inSlot = new Set((slot?.cells ?? []).map(([r, c]) => `${r},${c}`));
    const region = this.region;
    this.view.style.setProperty("--cols", String(model.width));
    this.view.setAttribute("aria-rowcount", String(model.height));
    this.view.setAttribute("aria-colcount", String(model.width));
    const rows = [];
    for (let r = 0; r < model.height; r++) {
      const row = document.createElement("div");
      row.className = "grid-row";
      row.setAttribute("role", "row");
      for (let c = 0; c < model.width; c++) row.append(this.cellView(r, c, numbers, inSlot, region));
      rows.push(row);
    }
    this.view.replaceChildren(...rows);
    const [r, c] = this.cursor;
    this.view.setAttribute("aria-activedescendant", `cell-${r}-${c}`);
  }

  cellView(r, c, numbers, inSlot, region) {
    const { model } = this;
    const div = document.createElement("div");
    const block = model.isBlock(r, c);
    const i = model.index(r, c);
    const classes = ["cell", block ? "block" : "open"];
    if (model.locked.has(i)) classes.push("locked");
    if (model.filled.has(i)) classes.push("filled");
    if (inSlot.has(`${r},${c}`)) classes.push("in-slot");
    if (region && inRegion(region, r, c)) classes.push("in-region");
    const [cr, cc] = this.cursor;
    if (r === cr && c === cc) classes.push("cursor", this.dir);
    div.className = classes.join(" ");
    div.id = `cell-${r}-${c}`;
    div.dataset.r = String(r);
    div.dataset.c = String(c);
    div.setAttribute("role", "gridcell");
    const number = numbers.get(`${r},${c}`);
    let letter = block ? "" : model.at(r, c);
    if (letter === EMPTY) letter = "";
    let ghost = "";
    if (!block && !letter && this.ghost) {
      const ch = asLetter([...(this.ghost[r] ?? "")][c] ?? "");
      if (ch) { ghost = ch; div.classList.add("ghost"); }
    }
    div.setAttribute("aria-label", block ? `row ${r + 1} column ${c + 1}, block`
      : `row ${r + 1} column ${c + 1}${number ? `, number ${number}` : ""}, `
        + (letter ? `letter ${letter.toUpperCase()}${model.locked.has(i) ? ", locked" : ""}`
          : "empty"));
    if (number) {
      const n = document.createElement("span");
      n.className = "num";
      n.textContent = String(number);
      div.append(n);
    }
    const l = document.createElement("span");
    l.className = "letter";
    l.textContent = letter || ghost;
    div.append(l);
    return div;
  }
}
