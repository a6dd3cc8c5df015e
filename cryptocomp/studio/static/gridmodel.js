// The grid being edited: cells ("#" a block, "." empty, a lower-case letter), the cells whose
// letters are locked (theme entries) or came from autofill, numbering, slots, symmetry and
// undo/redo.  No DOM here: the tests drive this module on its own against the Python oracle.

export const BLOCK = "#";
export const EMPTY = ".";
export const ACROSS = "across";
export const DOWN = "down";
export const SYMMETRIES = ["none", "rotational", "mirror"];
export const MIN_SIDE = 2;
export const MAX_SIDE = 25;
const HISTORY = 500; // undo steps kept: far more than a session needs, bounded memory

/** One letter a cell can hold: a single letter of any alphabet, lower-cased. */
export function asLetter(key) {
  if (typeof key !== "string") return null;
  const ch = key.normalize("NFC").toLowerCase();
  return [...ch].length === 1 && /^\p{L}$/u.test(ch) ? ch : null;
}

export class GridModel {
  /** An empty grid of ``height`` rows and ``width`` columns. */
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.cells = new Array(width * height).fill(EMPTY);
    this.locked = new Set();
    this.filled = new Set();
    this.undoStack = [];
    this.redoStack = [];
  }

  /** A grid read from rows of "#", "." and letters (the API's grid format). */
  static fromRows(rows) {
    const model = new GridModel(rows[0].length, rows.length);
    rows.forEach((row, r) => [...row].forEach((ch, c) => {
      model.cells[r * model.width + c] = ch === BLOCK ? BLOCK : (asLetter(ch) ?? EMPTY);
    }));
    return model;
  }

  index(r, c) { return r * this.width + c; }
  inside(r, c) { return r >= 0 && c >= 0 && r < this.height && c < this.width; }
  at(r, c) { return this.cells[this.index(r, c)]; }
  isBlock(r, c) { return !this.inside(r, c) || this.at(r, c) === BLOCK; }
  isLocked(r, c) { return this.locked.has(this.index(r, c)); }

  /** The grid as rows; ``keepFill`` false leaves the autofilled letters out. */
  rows(keepFill = true) {
    const out = [];
    for (let r = 0; r < this.height; r++) {
      let row = "";
      for (let c = 0; c < this.width; c++) {
        const i = this.index(r, c);
        row += !keepFill && this.filled.has(i) ? EMPTY : this.cells[i];
      }
      out.push(row);
    }
    return out;
  }

  // -- undo and redo ----------------------------------------------------------------------

  snapshot() {
    return { width: this.width, height: this.height, cells: this.cells.slice(),
      locked: [...this.locked], filled: [...this.filled] };
  }

  restore(s) {
    this.width = s.width;
    this.height = s.height;
    this.cells = s.cells.slice();
    this.locked = new Set(s.locked);
    this.filled = new Set(s.filled);
  }

  /** Run ``change`` as one undoable step; it returns false (or throws) to record nothing. */
  edit(change) {
    const before = this.snapshot();
    let done;
    try {
      done = change();
    } catch (err) {
      this.restore(before);
      throw err;
    }
    if (done === false || JSON.stringify(before) === JSON.stringify(this.snapshot())) {
      return false;
    }
    this.undoStack.push(before);
    if (this.undoStack.length > HISTORY) this.undoStack.shift();
    this.redoStack = [];
    return true;
  }

  undo() { return this.step(this.undoStack, this.redoStack); }
  redo() { return this.step(this.redoStack, this.undoStack); }

  step(from, to) {
    if (!from.length) return false;
    to.push(this.snapshot());
    this.restore(from.pop());
    return true;
  }

  // -- editing ----------------------------------------------------------------------------

  /** A fresh empty grid of the given size (undoable). */
  resize(width, height) {
    this.edit(() => {
      this.width = width;
      this.height = height;
      this.cells = new Array(width * height).fill(EMPTY);
      this.locked = new Set();
      this.filled = new Set();
    });
  }

  /** The cells ``symmetry`` ties to (r, c), (r, c) first. */
  partners(r, c, symmetry) {
    const out = [[r, c]];
    const add = (rr, cc) => {
      if (!out.some(([a, b]) => a === rr && b === cc)) out.push([rr, cc]);
    };
    if (symmetry === "rotational") add(this.height - 1 - r, this.width - 1 - c);
    if (symmetry === "mirror") add(r, this.width - 1 - c);
    return out;
  }

  /** Turn (r, c) and its symmetric partners into blocks, or all back to empty cells.
   *  A locked cell is never turned: the step is refused with an Error. */
  toggleBlock(r, c, symmetry) {
    const cells = this.partners(r, c, symmetry);
    if (cells.some(([rr, cc]) => this.isLocked(rr, cc))) {
      throw new Error("a locked cell cannot become a block (unlock its entry first)");
    }
    const block = !this.isBlock(r, c);
    return this.edit(() => {
      for (const [rr, cc] of cells) {
        const i = this.index(rr, cc);
        this.cells[i] = block ? BLOCK : EMPTY;
        this.filled.delete(i);
      }
    });
  }

  /** Put ``letter`` (or EMPTY) in (r, c); Error on a locked cell. */
  setLetter(r, c, letter) {
    if (this.isLocked(r, c)) throw new Error("that cell is locked (Ctrl+L unlocks its entry)");
    return this.edit(() => {
      const i = this.index(r, c);
      this.cells[i] = letter;
      this.filled.delete(i);
    });
  }

  /** Lock the letters of ``slot``, or unlock them all when they are all locked already. */
  toggleLock(slot) {
    const lettered = slot.cells.filter(([r, c]) => !this.isBlock(r, c) && this.at(r, c) !== EMPTY);
    if (!lettered.length) throw new Error("type the entry's letters before locking it");
    const all = lettered.every(([r, c]) => this.isLocked(r, c));
    return this.edit(() => {
      for (const [r, c] of lettered) {
        const i = this.index(r, c);
        if (all) this.locked.delete(i);
        else { this.locked.add(i); this.filled.delete(i); }
      }
    });
  }

  /** Write ``word`` into ``slot``'s cells that are not locked; Error when a locked letter
   *  disagrees. */
  placeWord(slot, word) {
    const letters = [...word];
    if (letters.length !== slot.cells.length) throw new Error(`"${word}" does not fit the slot`);
    slot.cells.forEach(([r, c], k) => {
      if (this.isLocked(r, c) && this.at(r, c) !== letters[k]) {
        throw new Error(`"${word}" clashes with a locked letter`);
      }
    });
    return this.edit(() => slot.cells.forEach(([r, c], k) => {
      if (!this.isLocked(r, c)) {
        const i = this.index(r, c);
        this.cells[i] = letters[k];
        this.filled.delete(i);
      }
    }));
  }

  /** Take a fill's rows: the letters of empty or autofilled cells inside ``region`` (all
   *  cells when null) become autofilled letters; typed and locked letters stay. */
  applyFill(rows, region = null) {
    return this.edit(() => {
      for (let r = 0; r < this.height; r++) {
        for (let c = 0; c < this.width; c++) {
          const i = this.index(r, c);
          const ch = asLetter([...(rows[r] ?? "")][c] ?? "");
          const free = this.cells[i] === EMPTY || this.filled.has(i);
          if (ch && free && this.cells[i] !== BLOCK && inRegion(region, r, c)) {
            this.cells[i] = ch;
            this.filled.add(i);
          }
        }
      }
    });
  }

  /** Clear the autofilled letters (inside ``region`` when given). */
  clearFill(region = null) {
    return this.edit(() => {
      for (const i of [...this.filled]) {
        const r = Math.floor(i / this.width);
        if (inRegion(region, r, i % this.width)) {
          this.cells[i] = EMPTY;
          this.filled.delete(i);
        }
      }
    });
  }

  /** The rows sent to autofill ``region``: letters outside it kept, its autofilled letters
   *  cleared (the whole grid's autofill when null). */
  fillRequest(region = null) {
    return this.rows().map((row, r) => [...row].map((ch, c) => {
      const i = this.index(r, c);
      return this.filled.has(i) && inRegion(region, r, c) ? EMPTY : ch;
    }).join(""));
  }

  /** The open cells of ``region`` as [row, col] pairs (the API's region of a fill). */
  regionCells(region) {
    const out = [];
    for (let r = region.top; r <= region.bottom; r++) {
      for (let c = region.left; c <= region.right; c++) {
        if (!this.isBlock(r, c)) out.push([r, c]);
      }
    }
    return out;
  }

  // -- slots and numbers --------------------------------------------------------------------

  startsRun(r, c, dir) {
    const [dr, dc] = dir === ACROSS ? [0, 1] : [1, 0];
    return !this.isBlock(r, c) && this.isBlock(r - dr, c - dc) && !this.isBlock(r + dr, c + dc);
  }

  /** Clue numbers: Map of "r,c" -> number, the start cells of slots in reading order. */
  numbers() {
    const out = new Map();
    let n = 0;
    for (let r = 0; r < this.height; r++) {
      for (let c = 0; c < this.width; c++) {
        if (this.startsRun(r, c, ACROSS) || this.startsRun(r, c, DOWN)) out.set(`${r},${c}`, ++n);
      }
    }
    return out;
  }

  /** The slot through (r, c) in ``dir`` ({dir, number, cells}), or null where the run is
   *  one cell (an unchecked cell is no slot) or (r, c) is a block. */
  slotAt(r, c, dir) {
    if (this.isBlock(r, c)) return null;
    const [dr, dc] = dir === ACROSS ? [0, 1] : [1, 0];
    let [sr, sc] = [r, c];
    while (!this.isBlock(sr - dr, sc - dc)) { sr -= dr; sc -= dc; }
    const cells = [];
    for (let [rr, cc] = [sr, sc]; !this.isBlock(rr, cc); rr += dr, cc += dc) cells.push([rr, cc]);
    if (cells.length < 2) return null;
    return { dir, number: this.numbers().get(`${sr},${sc}`), cells };
  }

  /** Every slot, across before down, then by number (the printed clue order). */
  slots() {
    const out = [];
    for (const dir of [ACROSS, DOWN]) {
      for (let r = 0; r < this.height; r++) {
        for (let c = 0; c < this.width; c++) {
          if (this.startsRun(r, c, dir)) out.push(this.slotAt(r, c, dir));
        }
      }
      out.sort((a, b) => (a.dir === b.dir ? a.number - b.number : a.dir === ACROSS ? -1 : 1));
    }
    return out;
  }

  /** The entry after ``slot`` in clue order (all across, then all down, then around). */
  nextSlot(slot) {
    const all = this.slots();
    const k = all.findIndex((s) => s.dir === slot.dir && s.number === slot.number);
    return all.length ? all[(k + 1) % all.length] : null;
  }

  /** The slot's letters, "." where empty. */
  pattern(slot) { return slot.cells.map(([r, c]) => this.at(r, c)).join(""); }
}

/** Whether (r, c) lies in ``region`` ({top, left, bottom, right}, inclusive); null is all. */
export function inRegion(region, r, c) {
  return !region || (r >= region.top && r <= region.bottom && c >= region.left
    && c <= region.right);
}

/** The rectangle spanned by two cells. */
export function spanned([r1, c1], [r2, c2]) {
  return { top: Math.min(r1, r2), left: Math.min(c1, c2), bottom: Math.max(r1, r2),
    right: Math.max(c1, c2) };
}
