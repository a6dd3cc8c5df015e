// Around the grid editor: the current slot's candidates with their viability, autofill of
// the grid or the selected region (progress, Cancel), and the exports.

import { cancelJob, download, followJob, isLive, postJSON } from "./api.js";
import { guarded, say } from "./status.js";

const CANDIDATE_WAIT = 250; // ms after the cursor settles before candidates are asked for
const VIABILITY = { true: "viable", false: "dead", unknown: "unknown" };
const EXPORTS = { puz: "puz", ipuz: "ipuz", jpz: "jpz", svg: "svg", pdf: "pdf" };

/** The class a candidate's viability is shown with (green, red, grey). */
export function viabilityClass(viable) {
  return VIABILITY[String(viable)] ?? "unknown";
}

export class GridTools {
  constructor(root, editor) {
    this.root = root;
    this.editor = editor;
    this.list = root.querySelector("#candidates");
    this.heading = root.querySelector("#candidates-heading");
    this.progress = root.querySelector("#fill-progress");
    this.cancelButton = root.querySelector("#fill-cancel");
    this.candidates = [];
    this.highlight = 0;
    this.latest = 0;
    this.timer = null;
    this.lastKey = "";
    this.job = null;
    root.querySelector("#fill-all").addEventListener("click", () => this.autofill(false));
    root.querySelector("#fill-region").addEventListener("click", () => this.autofill(true));
    root.querySelector("#fill-clear").addEventListener("click", () => this.clearFill());
    this.cancelButton.addEventListener("click", () => this.cancel());
    for (const kind of Object.keys(EXPORTS)) {
      root.querySelector(`#export-${kind}`).addEventListener("click", () => this.exportAs(kind));
    }
    editor.view.addEventListener("keydown", (e) => this.onKey(e), { capture: true });
  }

  get seconds() { return Number(this.root.querySelector("#fill-time").value) || 10; }

  /** Called on every editor change: refresh the candidates once the cursor settles. */
  changed() {
    const slot = this.editor.currentSlot();
    const key = slot ? `${this.editor.model.rows().join("/")}|${slot.dir}|${slot.cells[0]}` : "";
    this.root.querySelector("#fill-region").disabled = !this.editor.region || !!this.job;
    if (key === this.lastKey) return;
    this.lastKey = key;
    clearTimeout(this.timer);
    const ticket = ++this.latest; // an answer still on its way is for another grid: dropped
    if (!slot) { this.showCandidates(null, []); return; }
    this.timer = setTimeout(() => this.askCandidates(slot, ticket), CANDIDATE_WAIT);
  }

  async askCandidates(slot, ticket) {
    if (ticket !== this.latest) return;
    const { model } = this.editor;
    this.heading.textContent = `${slot.number} ${slot.dir}: looking…`;
    const same = this.slot && this.slot.dir === slot.dir
      && String(this.slot.cells[0]) === String(slot.cells[0])
      && this.slot.cells.length === slot.cells.length;
    if (same) this.list.classList.add("stale"); // this slot's last words, until the new come
    else { this.list.replaceChildren(); this.candidates = []; } // another slot's: not shown
    const [row, col] = slot.cells[0];
    await guarded(async () => {
      const answer = await postJSON("api/candidates", { grid: model.rows(),
        slot: { row, col, dir: slot.dir }, top: 30, time: 2 });
      if (ticket === this.latest) this.showCandidates(slot, answer.results ?? []);
    });
  }

  showCandidates(slot, results) {
    this.list.classList.remove("stale");
    this.candidates = results;
    this.highlight = 0;
    this.slot = slot;
    this.heading.textContent = slot
      ? `${slot.number} ${slot.dir} (${this.editor.model.pattern(slot).toUpperCase()}): `
        + `${results.length} candidate${results.length === 1 ? "" : "s"}`
      : "Candidates: put the cursor in an entry";
    this.list.replaceChildren(...results.map((cand, k) => {
      const li = document.createElement("li");
      const kind = viabilityClass(cand.viable);
      li.className = `candidate ${kind}`;
      li.id = `cand-${k}`;
      li.setAttribute("role", "option");
      li.dataset.word = cand.word;
      li.title = { viable: "the rest of the grid can still be filled",
        dead: "the rest of the grid cannot be filled with it",
        unknown: "not decided within the time budget" }[kind];
      li.textContent = cand.word;
      li.addEventListener("mousedown", (e) => { e.preventDefault(); this.accept(k); });
      return li;
    }));
    this.markHighlight();
  }

  markHighlight() {
    [...this.list.children].forEach((li, k) => {
      li.classList.toggle("highlight", k === this.highlight);
      li.setAttribute("aria-selected", String(k === this.highlight));
    });
  }

  /** Alt+Down/Alt+Up choose a candidate and Enter writes it in. */
  onKey(event) {
    if (event.altKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      if (!this.candidates.length) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.highlight = (this.highlight + step + this.candidates.length) % this.candidates.length;
      this.markHighlight();
      event.preventDefault();
      event.stopImmediatePropagation();
    } else if (event.key === "Enter" && this.candidates.length) {
      this.accept(this.highlight);
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }

  accept(k) {
    const cand = this.candidates[k];
    const slot = this.editor.currentSlot();
    if (!cand || !slot) return;
    this.editor.apply(() => this.editor.model.placeWord(slot, cand.word));
    this.editor.view.focus();
    say(`${cand.word} in ${slot.number} ${slot.dir}`);
  }

  // -- autofill -----------------------------------------------------------------------------

  async autofill(regionOnly) {
    if (this.job) { say(new Error("a fill is running: Cancel it first")); return; }
    const region = regionOnly ? this.editor.region : null;
    if (regionOnly && !region) { say(new Error("select a region first (Shift+arrows)")); return; }
    // the region's fill: letters outside it are sent as given, and only its cells are taken
    const options = { time: this.seconds };
    this.editor.ghost = null;
    this.setRunning(true);
    this.progress.textContent = region ? "filling the region…" : "filling…";
    say(this.progress.textContent);
    await guarded(async () => {
      const body = { grid: this.editor.model.fillRequest(region), options };
      if (region) body.region = this.editor.model.regionCells(region);
      const { job } = await postJSON("api/fill", body);
      this.job = job;
      const state = await followJob(job, (s) => this.onProgress(s));
      this.job = null;
      this.setRunning(false);
      this.finish(state, region);
    });
    this.job = null;
    this.setRunning(false);
  }

  onProgress(state) {
    if (!isLive(state.status)) return; // the end is said by finish()
    if (state.status === "running" && Array.isArray(state.grid)) {
      // the search's best partial fill so far, drawn faint in the empty cells
      this.editor.ghost = state.grid;
      this.editor.render();
    }
    const parts = [state.status ?? "running"];
    if (state.elapsed !== undefined) parts.push(`${Number(state.elapsed).toFixed(1)} s`);
    const p = state.progress ?? {};
    if (p.steps !== undefined) parts.push(`${Number(p.steps).toLocaleString("en")} steps`);
    if (p.settled !== undefined && p.slots) parts.push(`${p.settled}/${p.slots} slots settled`);
    if (state.tightest) parts.push(`tightest ${formatSlot(state.tightest)}`);
    this.progress.textContent = parts.join(" · ");
  }

  finish(state, region) {
    const elapsed = state.elapsed !== undefined ? ` in ${Number(state.elapsed).toFixed(1)} s` : "";
    const result = state.result ?? {};
    if (state.status === "done" && result.status === "filled") {
      this.editor.apply(() => this.editor.model.applyFill(result.grid ?? state.grid, region));
      this.progress.textContent = `filled${elapsed}`;
      say(`filled${region ? " the region" : ""}${elapsed}`);
    } else if (state.status === "cancelled") {
      this.progress.textContent = `cancelled${elapsed}`;
      say("fill cancelled");
    } else {
      const tight = result.tightest ? ` (tightest: ${formatSlot(result.tightest)})` : "";
      // the best partial fill, drawn faint until the next edit
      if (Array.isArray(result.grid)) { this.editor.ghost = result.grid; this.editor.render(); }
      this.progress.textContent = `no fill${elapsed}${tight}`;
      say(new Error((state.error ?? result.message ?? "the fill found no grid") + tight));
    }
  }

  setRunning(running) {
    this.cancelButton.disabled = !running;
    this.root.querySelector("#fill-all").disabled = running;
    this.root.querySelector("#fill-region").disabled = running || !this.editor.region;
    this.root.classList.toggle("running", running);
  }

  async cancel() {
    if (!this.job) return;
    this.progress.textContent = "cancelling…"; // the job's own end says "cancelled"
    await guarded(() => cancelJob(this.job));
  }

  clearFill() {
    this.editor.apply(() => this.editor.model.clearFill(this.editor.region));
    say("cleared the autofilled letters");
  }

  async exportAs(kind) {
    const grid = this.editor.model.rows();
    await guarded(async () => {
      await download(`api/export/${EXPORTS[kind]}`, { grid }, `grid.${kind}`);
      say(`exported grid.${kind}`);
    });
  }
}

/** A slot as the API names it (a string, or {row, col, dir} / {name}). */
export function formatSlot(slot) {
  if (typeof slot === "string") return slot;
  if (slot && slot.name) {
    return slot.candidates !== undefined ? `${slot.name}, ${slot.candidates} words` : slot.name;
  }
  if (slot && "row" in slot) return `${slot.dir ?? ""} at row ${slot.row + 1}, column ${slot.col + 1}`;
  return String(slot);
}
