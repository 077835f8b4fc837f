// DESIGN 25: the console's passkey buttons, for browsers that run this script and can use
// passkeys. Served after @simplewebauthn/browser's bundle, in one file (scripts/passkeys-script.mjs
// makes src/console/passkeys/browser-script.ts from both). The forms it wires are hidden in the
// page as served: without it, nothing of passkeys shows and the emailed link still signs in.
// Its words come from the form's data-* attributes, in the person's language.
(() => {
  const { browserSupportsWebAuthn, startAuthentication, startRegistration } = globalThis.SimpleWebAuthnBrowser;
  if (!browserSupportsWebAuthn()) return;

  /** A JSON POST to the console (same origin: the browser sends its Origin); the answer, or an error with its status. */
  async function post(path, body) {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw Object.assign(new Error(answer.detail ?? `HTTP ${res.status}`), { status: res.status, kind: answer.type });
    return answer;
  }

  /** Shows the form and runs `use` on its submit, saying in its status line what happens. */
  function wire(form, use) {
    const status = form.querySelector("[role=status]");
    const button = form.querySelector("button");
    form.hidden = false;
    for (const note of document.querySelectorAll("[data-passkeys-need-script]")) note.hidden = true;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      button.disabled = true;
      status.textContent = form.dataset.working;
      try {
        await use(form);
      } catch (error) {
        // NotAllowedError: the person cancelled, or the browser's prompt timed out.
        const said = error.name === "NotAllowedError" ? form.dataset.cancelled : error.name === "InvalidStateError" || error.kind === "/problems/passkey-exists" ? form.dataset.exists : form.dataset.failed;
        status.textContent = said ?? form.dataset.failed;
        button.disabled = false;
      }
    });
  }

  const add = document.getElementById("passkey-add");
  if (add) {
    wire(add, async (form) => {
      const optionsJSON = await post("/employer/passkeys/options", {});
      const credential = await startRegistration({ optionsJSON });
      const { next } = await post("/employer/passkeys", { credential, name: form.elements.namedItem("name").value });
      location.assign(next);
    });
  }

  const signIn = document.getElementById("passkey-sign-in");
  if (signIn) {
    wire(signIn, async (form) => {
      const optionsJSON = await post("/employer/sign-in/passkey/options", {});
      const credential = await startAuthentication({ optionsJSON });
      const { next } = await post("/employer/sign-in/passkey", { credential, next: form.dataset.next });
      location.assign(next);
    });
  }
})();
