// The JSON API of `cryptocomp serve`, seen from the page: one-line errors, downloads, and the
// jobs (fills, arrow-word batches) followed by their event stream with polling as fallback.

const TERMINAL_WAIT = 250; // ms between polls when the event stream is unavailable
const LIVE = new Set(["queued", "pending", "running", "started"]);

/** The one line a failed response says ({"error": ...} or its status). */
async function failure(response) {
  let line = `${response.status} ${response.statusText}`.trim();
  try {
    const body = await response.json();
    if (body && typeof body.error === "string") line = body.error;
    else if (body && typeof body.detail === "string") line = body.detail;
  } catch { /* not JSON: the status line says it */ }
  return new Error(line.split("\n")[0]);
}

// A studio started with --token is opened once as /?token=T: the server answers with its
// cookie (HttpOnly, SameSite=Strict) and the page without the token in its address; every
// request of the page, its scripts and event streams included, then carries the cookie.

async function send(path, init = {}) {
  let response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    throw new Error("the studio server does not answer (is `cryptocomp serve` running?)");
  }
  if (!response.ok) throw await failure(response);
  return response;
}

/** GET ``path`` with query ``params``; the parsed JSON. */
export async function getJSON(path, params = {}, signal = undefined) {
  const query = new URLSearchParams(params).toString();
  const response = await send(query ? `${path}?${query}` : path, { signal });
  return response.json();
}

/** POST ``body`` as JSON to ``path``; the parsed JSON. */
export async function postJSON(path, body, signal = undefined) {
  const response = await send(path, { method: "POST", signal,
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return response.json();
}

/** POST ``body`` to ``path`` and save the file it answers as ``fallbackName``. */
export async function download(path, body, fallbackName) {
  const response = await send(path, { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const named = /filename="?([^";]+)"?/i.exec(disposition);
  saveBlob(await response.blob(), named ? named[1] : fallbackName);
}

/** Offer ``blob`` to the browser as a download named ``name``. */
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Whether a job's status means it is still going. */
export function isLive(status) { return LIVE.has(status); }

/** Follow job ``id``: ``onProgress(state)`` on each event, resolves with the final state. */
export function followJob(id, onProgress) {
  return new Promise((resolve, reject) => {
    let source = null;
    let settled = false;
    const end = async () => {
      if (settled) return;
      settled = true;
      if (source) source.close();
      try { resolve(await getJSON(`api/jobs/${id}`)); } catch (err) { reject(err); }
    };
    const poll = async () => {
      if (settled) return;
      try {
        const state = await getJSON(`api/jobs/${id}`);
        onProgress(state);
        if (isLive(state.status)) setTimeout(poll, TERMINAL_WAIT);
        else end();
      } catch (err) { settled = true; reject(err); }
    };
    if (typeof EventSource === "undefined") { poll(); return; }
    source = new EventSource(`api/jobs/${id}/events`);
    const onEvent = (event) => {
      let state;
      try { state = JSON.parse(event.data); } catch { return; }
      onProgress(state);
      if (state.status && !isLive(state.status)) end();
    };
    // the server names each event by the job's status; an unnamed one is a "message"
    for (const name of ["message", "queued", "running", "done", "failed", "cancelled"]) {
      source.addEventListener(name, onEvent);
    }
    source.onerror = () => {
      // the stream ended (the job is over) or is not served: the job's state tells which
      source.close();
      poll();
    };
  });
}

/** Cancel job ``id`` (a job already over is no error). */
export async function cancelJob(id) {
  try {
    await send(`api/jobs/${id}`, { method: "DELETE" });
  } catch (err) {
    if (!/not found|over|finished|404/i.test(err.message)) throw err;
  }
}
