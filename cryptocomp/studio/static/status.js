// The page's one status line: what just happened, or what went wrong, in one line.

let line = null;

/** Use ``element`` as the status line. */
export function attach(element) { line = element; }

/** Say ``text`` (an Error is shown as a problem). */
export function say(text) {
  if (!line) return;
  const problem = text instanceof Error;
  line.textContent = (problem ? text.message : String(text)).split("\n")[0];
  line.classList.toggle("problem", problem);
}

/** Run ``task``; a failure is said on the status line instead of thrown. */
export async function guarded(task) {
  try {
    return await task();
  } catch (err) {
    if (err && err.name === "AbortError") return undefined;
    say(err instanceof Error ? err : new Error(String(err)));
    return undefined;
  }
}
