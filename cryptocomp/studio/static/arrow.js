// The arrow-word preview: generate a puzzle as a job, see its SVG, regenerate with a new
// seed, download its PDF.

import { cancelJob, followJob, isLive, postJSON } from "./api.js";
import { guarded, say } from "./status.js";

export class ArrowPanel {
  constructor(root) {
    this.root = root;
    this.preview = root.querySelector("#arrow-preview");
    this.progress = root.querySelector("#arrow-progress");
    this.job = null;
    this.done = null; // the finished job's id, for the PDF
    this.seed = 1;
    root.querySelector("#arrow-generate").addEventListener("click", () => this.generate());
    root.querySelector("#arrow-regenerate").addEventListener("click", () => {
      this.seed += 1;
      this.generate();
    });
    root.querySelector("#arrow-cancel").addEventListener("click", () => this.cancel());
    root.querySelector("#arrow-pdf").addEventListener("click", () => this.pdf());
  }

  request() {
    const number = (id) => Number(this.root.querySelector(id).value);
    return { width: number("#arrow-width"), height: number("#arrow-height"),
      options: { seed: this.seed, time: number("#arrow-time") || 20 } };
  }

  async generate() {
    if (this.job) { say(new Error("an arrow word is being made: Cancel it first")); return; }
    this.busy(true);
    this.progress.textContent = `generating (seed ${this.seed})…`;
    await guarded(async () => {
      const { job } = await postJSON("api/arrow", this.request());
      this.job = job;
      const state = await followJob(job, (s) => {
        if (s.elapsed !== undefined && isLive(s.status)) {
          this.progress.textContent = `${s.status} · ${Number(s.elapsed).toFixed(1)} s`;
        }
      });
      this.show(state);
      this.job = null;
      this.busy(false);
    });
    this.job = null;
    this.busy(false);
  }

  show(state) {
    const result = state.result ?? {};
    if (state.status !== "done" || result.status !== "done" || typeof result.svg !== "string") {
      this.progress.textContent = state.status === "cancelled" ? "cancelled" : "no puzzle";
      if (state.status !== "cancelled") {
        say(new Error(state.error ?? result.message ?? `the arrow word ended ${state.status}`));
      }
      return;
    }
    this.done = this.job;
    // drawn as an image: the SVG's text is shown, nothing in it runs
    const url = URL.createObjectURL(new Blob([result.svg], { type: "image/svg+xml" }));
    const img = document.createElement("img");
    img.alt = `arrow-word puzzle, seed ${this.seed}`;
    img.src = url;
    img.onload = () => URL.revokeObjectURL(url);
    this.preview.replaceChildren(img);
    this.root.querySelector("#arrow-pdf").disabled = false;
    const took = state.elapsed !== undefined ? ` in ${Number(state.elapsed).toFixed(1)} s` : "";
    this.progress.textContent = `seed ${this.seed}${took}`
      + (result.message ? ` · ${result.message}` : "");
    say(`arrow word made (seed ${this.seed})`);
  }

  busy(running) {
    this.root.querySelector("#arrow-cancel").disabled = !running;
    this.root.querySelector("#arrow-generate").disabled = running;
    this.root.querySelector("#arrow-regenerate").disabled = running;
  }

  async cancel() {
    if (!this.job) return;
    this.progress.textContent = "cancelling…";
    await guarded(() => cancelJob(this.job));
  }

  /** The finished job's PDF, a plain download of GET /api/jobs/ID/pdf. */
  pdf() {
    if (!this.done) { say(new Error("generate an arrow word first")); return; }
    const link = document.createElement("a");
    link.href = `api/jobs/${this.done}/pdf`;
    link.download = `arrow-${this.seed}.pdf`;
    document.body.append(link);
    link.click();
    link.remove();
    say(`downloading arrow-${this.seed}.pdf`);
  }
}
