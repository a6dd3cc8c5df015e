// The compose panel: ranked puzzles as the expression is typed (debounced; a response that a
// newer keystroke made stale is dropped) with their difficulty, puzzles generated from a
// word list or doubly true, solving a puzzle, saving the list as CSV or JSON.

import { getJSON, postJSON, saveBlob } from "./api.js";
import { guarded, say } from "./status.js";

const DEBOUNCE = 200; // ms: one request per pause in typing, not one per key
const COLUMNS = ["rank", "word", "puzzle", "solution", "difficulty"];

/** A difficulty as the table shows it: "level N", or "unrated" (and why). */
export function shownDifficulty(d) {
  if (!d) return "";
  if (d.level === null || d.level === undefined) return d.reason ? `unrated (${d.reason})` : "unrated";
  return `level ${d.level}`;
}

/** A cell value as text (lists and objects written out plainly). */
export function shownValue(value, column = "") {
  if (column === "difficulty") return shownDifficulty(value);
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(shownValue).join(", ");
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k}=${shownValue(v)}`).join(" ");
  }
  return String(value);
}

/** The results as CSV (RFC 4180 quoting). */
export function asCSV(results, columns) {
  const quote = (v) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = [columns.join(",")];
  for (const row of results) lines.push(columns.map((k) => quote(shownValue(row[k], k))).join(","));
  return lines.join("\r\n") + "\r\n";
}

export class ComposePanel {
  constructor(root) {
    this.root = root;
    this.input = root.querySelector("#compose-q");
    this.top = root.querySelector("#compose-top");
    this.table = root.querySelector("#compose-results");
    this.summary = root.querySelector("#compose-summary");
    this.solution = root.querySelector("#solve-output");
    this.results = [];
    this.selected = -1;
    this.latest = 0;
    this.controller = null;
    this.timer = null;
    this.input.addEventListener("input", () => this.schedule());
    this.top.addEventListener("change", () => this.schedule());
    this.input.addEventListener("keydown", (e) => this.onKey(e));
    this.table.addEventListener("keydown", (e) => this.onKey(e));
    root.querySelector("#solve").addEventListener("click", () => this.solve());
    root.querySelector("#save-csv").addEventListener("click", () => this.save("csv"));
    root.querySelector("#save-json").addEventListener("click", () => this.save("json"));
    root.querySelector("#generate-list").addEventListener("click", () => this.generate(false));
    root.querySelector("#generate-doubly").addEventListener("click", () => this.generate(true));
  }

  /** Generate puzzles from the word list (or the doubly-true range) within the seconds. */
  async generate(doubly) {
    const value = (id) => this.root.querySelector(id).value;
    const body = { time: Number(value("#generate-time")) || 5, difficulty: true, top: 500 };
    if (doubly) {
      body.doubly_true = { low: Number(value("#doubly-low")), high: Number(value("#doubly-high")),
        lang: value("#doubly-lang").trim() };
    } else {
      body.words = value("#generate-words").split(/[\s,;]+/u).filter(Boolean);
      body.right = value("#generate-right");
    }
    const ticket = ++this.latest; // a typed expression's answer no longer replaces these
    this.summary.textContent = "generating…";
    await guarded(async () => {
      const answer = await postJSON("api/generate", body);
      if (ticket !== this.latest) return;
      const rows = (answer.results ?? []).map((g, k) => ({ rank: k + 1, puzzle: g.puzzle,
        solution: g.equation, difficulty: g.difficulty }));
      this.show({ total: rows.length, results: rows });
      this.summary.textContent = `${rows.length} puzzle${rows.length === 1 ? "" : "s"} generated`
        + (answer.complete ? "" : " (the time ran out: there may be more)");
      say(`generated ${rows.length} puzzles in ${Number(answer.seconds).toFixed(1)} s`);
    });
    if (ticket === this.latest && this.summary.textContent === "generating…") {
      this.summary.textContent = "";
    }
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.query(), DEBOUNCE);
  }

  /** Ask for the ranked puzzles of the typed expression; only the newest answer is shown. */
  async query() {
    const q = this.input.value.trim();
    const ticket = ++this.latest;
    if (this.controller) this.controller.abort();
    if (!q) { this.show({ total: 0, results: [] }); return; }
    this.controller = new AbortController();
    this.summary.textContent = "composing…";
    await guarded(async () => {
      const answer = await getJSON("api/compose", { q, top: this.top.value, difficulty: 1 },
        this.controller.signal);
      if (ticket === this.latest) this.show(answer);
    });
    if (ticket === this.latest && this.summary.textContent === "composing…") {
      this.summary.textContent = "";
    }
  }

  show(answer) {
    this.results = answer.results ?? [];
    this.selected = this.results.length ? 0 : -1;
    const columns = this.columns();
    const head = `<tr>${columns.map((c) => `<th scope="col">${c}</th>`).join("")}</tr>`;
    this.table.innerHTML = `<thead>${head}</thead><tbody></tbody>`;
    const body = this.table.querySelector("tbody");
    this.results.forEach((row, k) => {
      const tr = document.createElement("tr");
      tr.dataset.index = String(k);
      for (const c of columns) {
        const td = document.createElement("td");
        td.textContent = shownValue(row[c], c);
        td.className = `col-${c}`;
        if (c === "difficulty" && row[c]) {
          const d = row[c];
          td.title = `score ${d.score}: ${d.steps} steps, ${d.guesses} guesses`;
          td.dataset.level = String(d.level ?? "");
        }
        tr.append(td);
      }
      tr.addEventListener("click", () => this.select(k));
      tr.addEventListener("dblclick", () => this.solve());
      body.append(tr);
    });
    const total = answer.total ?? this.results.length;
    this.summary.textContent = this.input.value.trim()
      ? `${total} puzzle${total === 1 ? "" : "s"}${total > this.results.length
        ? `, the best ${this.results.length} shown` : ""}` : "";
    this.select(this.selected);
  }

  /** The columns shown: those the rows have (a generated puzzle has no word). */
  columns() {
    return COLUMNS.filter((c) => this.results.some((r) => c in r));
  }

  select(k) {
    this.selected = k;
    this.table.querySelectorAll("tbody tr").forEach((tr, i) => {
      tr.classList.toggle("selected", i === k);
      tr.setAttribute("aria-selected", String(i === k));
      if (i === k) tr.scrollIntoView({ block: "nearest" });
    });
  }

  onKey(event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!this.results.length) return;
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.select(Math.max(0, Math.min(this.results.length - 1, this.selected + step)));
    } else if (event.key === "Enter") {
      event.preventDefault();
      this.solve();
    }
  }

  /** Solve the selected puzzle (or the typed one when it has "="); show its solutions. */
  async solve() {
    const typed = this.input.value.trim();
    const row = this.results[this.selected];
    const q = typed.includes("=") || !row ? typed : row.puzzle;
    if (!q) { say(new Error("type a cryptarithm first, e.g. SEND+MORE")); return; }
    await guarded(async () => {
      const answer = await getJSON("api/solve", { q });
      const shown = (answer.solutions ?? []).slice(0, 20).map(shownValue);
      const count = answer.count ?? shown.length;
      this.solution.textContent = `${q}: ${count} solution${count === 1 ? "" : "s"}`
        + (shown.length ? `\n${shown.join("\n")}` : "")
        + (answer.equations ? `\n${shownValue(answer.equations)}` : "");
      say(`solved ${q}`);
    });
  }

  save(kind) {
    if (!this.results.length) { say(new Error("nothing to save: compose something first")); return; }
    const name = (this.input.value.trim() || "puzzles").replace(/[^\p{L}\p{N}]+/gu, "-");
    const blob = kind === "csv"
      ? new Blob([asCSV(this.results, this.columns())], { type: "text/csv" })
      : new Blob([JSON.stringify(this.results, null, 2)], { type: "application/json" });
    saveBlob(blob, `${name}.${kind}`);
    say(`saved ${this.results.length} puzzles as ${name}.${kind}`);
  }
}
