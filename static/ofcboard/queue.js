// Saves kept on the phone while the Wi-Fi is gone, and sent by themselves when it is back.
//
// Every save form ([data-queue-form]) carries a key made here, one per intended save and
// the same for every retry of it, so the server records it once however often it
// arrives. A save that cannot reach the server is kept in localStorage (it survives a
// reload, a closed tab, a locked phone) and sent again on the browser's `online` event,
// after any poll that reaches the server, and when the page opens. So is a save the
// server could not take now (502, 503, 504) or did not answer in time: that one is sent
// again by itself after a short wait. The server answers a queued send in data
// (scorekeeper/views/offline.py): saved, or refused with a reason, which is shown and
// the save dropped. Without this file the forms post as they always did.
//
// Each kept save is tagged with the account that made it and when. Logging out first
// sends this account's saves; what cannot be sent is shown, and the person chooses to log
// out anyway (the saves stay, for their next login here). Then the night page the
// service worker kept is deleted. Another account's saves kept for more than a day are
// dropped, with a word to whoever logs in next.
(function () {
  "use strict";

  const STORE = "ofcboard.queue";
  // A save not answered within this is taken for lost and sent again. It is a few hundred
  // bytes that the server answers in milliseconds; on a table's Wi-Fi that drops packets,
  // TCP sends a lost one again after 1, 2 and 4 s, so 10 s outlasts three losses in a row
  // (and the server cuts a body that is slower than that). Past it the answer is not
  // coming (the phone changed access point, the connection died without a word), and a
  // Save that does nothing for minutes looks like a saved total. Sending again is safe:
  // the key makes the server record it once, also when the first one did arrive.
  const ANSWER_WITHIN_MS = 10000;
  // The server, or the proxy before it, cannot take the save now; nobody refused it.
  const NOT_NOW = [502, 503, 504];
  // Sent again after the server's Retry-After, else after 1, 2, 4... seconds; never
  // later than this, so a kept save does not sit for minutes while the table plays on.
  const LONGEST_WAIT_S = 30;
  // Another account's saves are kept this long for it, then dropped.
  const OTHERS_KEPT_MS = 24 * 60 * 60 * 1000;
  // The service worker's cache of the night page (templates/scorekeeper/service_worker.js).
  const PAGE_CACHES = "ofcboard-pages-";
  const list = document.querySelector("[data-queue]");
  if (!list || !window.localStorage) return;
  const user = list.dataset.user;
  const notices = []; // answers to show until dismissed: {text, bad}
  let flushing = null; // the sending under way, for a logout to wait for
  let loggingOut = null; // {form, state: "sending" | "unsent"}
  let notBefore = 0; // Date.now() before which nothing is sent: the server asked to wait
  let waits = 0; // "not now" answers in a row, for the back-off
  let retry = null;

  function say(name, values) {
    const text = list.dataset["text" + name[0].toUpperCase() + name.slice(1)] || "";
    return text.replace(/\{(\w+)\}/g, (match, key) => (key in values ? values[key] : match));
  }

  function load() {
    try {
      const items = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(items) ? items : [];
    } catch (error) {
      return [];
    }
  }

  function store(items) {
    try {
      localStorage.setItem(STORE, JSON.stringify(items));
    } catch (error) { /* storage full or refused: the save stays on the screen only */ }
  }

  function newKey() {
    // crypto.randomUUID needs HTTPS; getRandomValues works on the table's plain HTTP too.
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  // A form's fields, or those a request carried (htmx's FormData).
  function fieldsOf(source) {
    const data = source instanceof FormData ? source : new FormData(source);
    return Array.from(data).filter(([name]) => name !== "csrfmiddlewaretoken");
  }

  // The same values keep their key (a double tap, a retry); changed values are a new save.
  function keyFor(form) {
    const input = form.querySelector("[data-save-key]");
    if (!input) return "";
    const values = JSON.stringify(fieldsOf(form).filter(([name]) => name !== "key"));
    if (!input.value || form.dataset.keyFor !== values) {
      input.value = newKey();
      form.dataset.keyFor = values;
    }
    return input.value;
  }

  function signed(text) {
    const value = String(text || "").trim().replace(/^\+/, "").replace("−", "-");
    const number = parseInt(value, 10);
    if (Number.isNaN(number)) return value;
    return number > 0 ? "+" + number : number < 0 ? "−" + -number : "0";
  }

  function what(item) {
    const value = item.kind === "cards" ? say("cards", {}) : signed(item.points);
    return item.for ? say("for", { what: value, name: item.for }) : value;
  }

  // `sent`: the fields a request carried (htmx's FormData), when they may no longer be
  // what the form shows (a new value typed while the answer was awaited).
  function itemOf(form, sent) {
    if (!sent) keyFor(form);
    const fields = fieldsOf(sent || form);
    const get = (name) => (fields.find(([field]) => field === name) || [])[1] || "";
    return {
      key: get("key"),
      url: form.getAttribute("action") || location.pathname,
      page: location.pathname,
      user,
      kind: form.dataset.queueKind || "total",
      for: form.dataset.queueFor || "",
      round: get("round"),
      seat: get("seat"),
      points: get("points"),
      fields: fields.concat([["save", "1"]]),
    };
  }

  // A newer save for the same seat and round replaces the one kept before it.
  // `why` it waits: "wifi" (no connection) or "server" (not taken, or no answer, yet).
  function keep(item, why) {
    const items = load().filter((other) => !sameSlot(item, other));
    items.push(Object.assign(item, { why, kept: Date.now() }));
    store(items);
    render();
  }

  function waitsFor(item, why) {
    const items = load();
    const kept = items.find((other) => other.key === item.key);
    if (!kept || kept.why === why) return;
    kept.why = why;
    store(items);
  }

  function drop(item) {
    store(load().filter((other) => other.key !== item.key));
  }

  function sameSlot(item, other) {
    return other.url === item.url && other.seat === item.seat && other.round === item.round;
  }

  function render() {
    const mine = load().filter((item) => item.user === user);
    list.replaceChildren();
    for (const item of mine) {
      const line = document.createElement("p");
      line.className = "queued-line";
      line.dataset.testid = "queued";
      const words = item.why === "server" ? "waitingServer" : "waiting";
      line.textContent = say(words, { what: what(item), round: item.round });
      list.append(line);
    }
    notices.forEach((notice, index) => {
      const line = document.createElement("p");
      line.className = notice.bad ? "queued-line error" : "queued-line sent";
      line.setAttribute("role", notice.bad ? "alert" : "status");
      line.textContent = notice.text + " ";
      const ok = document.createElement("button");
      ok.type = "button";
      ok.className = "link";
      ok.textContent = say("dismiss", {});
      ok.addEventListener("click", () => {
        notices.splice(index, 1);
        render();
      });
      line.append(ok);
      list.append(line);
    });
    if (loggingOut) list.append(logoutLine());
    list.hidden = list.childElementCount === 0;
  }

  function logoutLine() {
    const line = document.createElement("p");
    line.className = "queued-line error";
    line.setAttribute("role", loggingOut.state === "unsent" ? "alert" : "status");
    line.dataset.testid = "logout-unsent";
    if (loggingOut.state === "sending") {
      line.textContent = say("logoutSending", {});
      return line;
    }
    line.textContent = say("logoutUnsent", {}) + " ";
    const anyway = document.createElement("button");
    anyway.type = "button";
    anyway.className = "link danger";
    anyway.textContent = say("logoutAnyway", {});
    anyway.addEventListener("click", () => logOut(loggingOut.form));
    line.append(anyway);
    return line;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // Seconds the server asked the phone to wait (Retry-After: seconds or a date), or null.
  function retryAfter(value) {
    if (!value) return null;
    const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
    return Number.isFinite(seconds) ? seconds : null;
  }

  // A bounded back-off: at least what the server asked, at least 1, 2, 4... seconds as
  // "not now" answers follow each other, at most LONGEST_WAIT_S.
  function tryAgainLater(asked) {
    waits += 1;
    const seconds = Math.min(Math.max(asked || 0, 2 ** (waits - 1), 1), LONGEST_WAIT_S);
    // Up to half a second more, so that phones turned away together do not return together.
    const delay = seconds * 1000 + Math.random() * 500;
    notBefore = Date.now() + delay;
    clearTimeout(retry);
    retry = setTimeout(() => {
      notBefore = 0;
      flush();
    }, delay);
  }

  // "offline": sent again when the Wi-Fi is back; "later": the server could not take it
  // now, or no answer came in time (sent again after `wait` s or the back-off); "kept":
  // the server could not take it yet for another reason; else the answer.
  async function send(item) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), ANSWER_WITHIN_MS);
    try {
      return await answerTo(item, abort.signal);
    } catch (error) {
      return { state: abort.signal.aborted ? "later" : "offline" };
    } finally {
      clearTimeout(timer);
    }
  }

  async function answerTo(item, signal) {
    const response = await fetch(item.url, {
      method: "POST",
      body: new URLSearchParams(item.fields),
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      signal,
    });
    if (NOT_NOW.includes(response.status)) {
      return { state: "later", wait: retryAfter(response.headers.get("Retry-After")) };
    }
    const isJson = (response.headers.get("Content-Type") || "").startsWith("application/json");
    if (response.status === 403) return { state: "kept", text: say("outdated", {}) };
    if (response.status === 404) return { state: "refused", reason: "" };
    if (!isJson) {
      // A login page (the session ended) or a server error: keep it for the next try.
      return { state: "kept", text: response.redirected ? say("login", {}) : "" };
    }
    const answer = await response.json().catch((error) => {
      if (signal.aborted) throw error; // the answer stopped coming: send it again
      return {};
    });
    if (answer.saved) return { state: "saved" };
    if (response.status === 409 || response.status === 400) {
      return { state: "refused", reason: answer.message || "" };
    }
    return { state: "kept", text: "" };
  }

  function sent(item) {
    if (item.kind === "cards" && item.page === location.pathname) {
      location.reload(); // the card page shows the counted board, as after a plain save
      return;
    }
    notices.push({ text: say("sent", { what: what(item), round: item.round }) });
    refreshForm(item);
  }

  // The night page's form shows "Saved: +12" once its save arrived, unless a new value
  // was typed meanwhile (never replace what is under a thumb).
  function refreshForm(item) {
    const form = document.querySelector("#entry-form form[data-queue-form]");
    if (!form || !window.htmx) return;
    const shown = itemOf(form);
    if (shown.round !== item.round || shown.seat !== item.seat || shown.points !== item.points) return;
    window.htmx.ajax("GET", location.pathname + "?for=" + encodeURIComponent(item.seat), {
      source: form,
      target: "#entry-form",
      select: "#entry-form",
      swap: "outerHTML",
    });
  }

  function flush() {
    if (flushing) return flushing;
    if (Date.now() < notBefore) return Promise.resolve();
    flushing = sendAll().finally(() => {
      flushing = null;
      render();
    });
    return flushing;
  }

  async function sendAll() {
    for (const item of load().filter((other) => other.user === user)) {
      const outcome = await send(item);
      if (outcome.state === "offline") {
        waitsFor(item, "wifi");
        break;
      }
      if (outcome.state === "later") {
        // The next ones would be turned away too; all wait, in their order.
        waitsFor(item, "server");
        tryAgainLater(outcome.wait);
        break;
      }
      waits = 0;
      if (outcome.state === "kept") {
        waitsFor(item, "server");
        if (outcome.text && !notices.some((notice) => notice.text === outcome.text)) {
          notices.push({ text: outcome.text, bad: true });
        }
        continue;
      }
      drop(item);
      if (outcome.state === "saved") sent(item);
      else {
        notices.push({
          text: say("refused", { what: what(item), round: item.round, reason: outcome.reason }),
          bad: true,
        });
      }
    }
  }

  function waiting() {
    return load().some((item) => item.user === user);
  }

  // Before htmx or the browser reads the form: the save's key goes with the first try,
  // and a newer save for the seat replaces one kept before (it must not arrive after it).
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target.closest("form[data-queue-form]");
      if (!form) return;
      const item = itemOf(form);
      const kept = load();
      if (kept.some((other) => sameSlot(item, other))) {
        store(kept.filter((other) => !sameSlot(item, other)));
        render();
      }
    },
    true
  );

  // The night page's total: htmx posts it, and waits ANSWER_WITHIN_MS for the answer.
  // One that cannot reach the server, that the server cannot take now, or that is not
  // answered in time is kept, as it was sent (its key, its values).
  function keptSave(event, why) {
    const config = event.detail.requestConfig;
    const form = event.detail.elt && event.detail.elt.closest("form[data-queue-form]");
    if (!form || !config || config.verb !== "post") return false;
    keep(itemOf(form, config.formData), why);
    return true;
  }

  document.addEventListener("htmx:configRequest", (event) => {
    const form = event.detail.elt && event.detail.elt.closest("form[data-queue-form]");
    if (form && event.detail.verb === "post") event.detail.timeout = ANSWER_WITHIN_MS;
  });
  document.addEventListener("htmx:sendError", (event) => keptSave(event, "wifi"));
  document.addEventListener("htmx:timeout", (event) => {
    if (keptSave(event, "server")) tryAgainLater(null);
  });
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || !NOT_NOW.includes(xhr.status) || !keptSave(event, "server")) return;
    tryAgainLater(retryAfter(xhr.getResponseHeader("Retry-After")));
  });

  // The card page posts without htmx: send it here, so a dead Wi-Fi keeps the board.
  document.addEventListener("submit", async (event) => {
    const form = event.target.closest("form[data-queue-form][data-picker]");
    if (!form || event.defaultPrevented) return;
    const button = event.submitter;
    if (button && button.name && button.name !== "save") return; // a picker tap without JS
    event.preventDefault();
    const item = itemOf(form);
    const outcome = await send(item);
    if (outcome.state === "saved") {
      location.reload();
    } else if (outcome.state === "refused") {
      // The server is there and says no: post as without JavaScript, so the page comes
      // back with its errors and the deck as the table has it (nothing was saved).
      form.submit();
    } else {
      keep(item, outcome.state === "offline" ? "wifi" : "server");
      if (outcome.text) notices.push({ text: outcome.text, bad: true });
      if (outcome.state === "later") tryAgainLater(outcome.wait);
      render();
    }
  });

  // The night page kept for offline use is this account's: it goes at logout.
  async function forgetPages() {
    if (!window.caches) return; // plain HTTP: no service worker, nothing kept
    try {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(PAGE_CACHES)).map((name) => caches.delete(name)));
    } catch (error) { /* the logout answer's Clear-Site-Data and the worker try again */ }
  }

  async function logOut(form) {
    loggingOut = null;
    render();
    await forgetPages();
    form.submit(); // no submit event: this listener is not asked again
  }

  // Logging out: first this account's saves go, or the person sees which did not.
  document.addEventListener("submit", async (event) => {
    const form = event.target.closest("form[data-logout]");
    if (!form) return;
    event.preventDefault();
    if (waiting()) {
      loggingOut = { form, state: "sending" };
      render();
      clearTimeout(retry);
      notBefore = 0;
      await flush();
    }
    if (waiting()) {
      loggingOut = { form, state: "unsent" };
      render();
      list.scrollIntoView({ block: "nearest" });
      return;
    }
    await logOut(form);
  });

  // Saves kept for another account, for more than a day, are dropped (and said so).
  function dropOthersOld() {
    const now = Date.now();
    const items = load();
    items.forEach((item) => { if (!item.kept) item.kept = now; }); // kept before the tag
    const left = items.filter((item) => item.user === user || now - item.kept < OTHERS_KEPT_MS);
    if (left.length < items.length) notices.push({ text: say("expired", {}), bad: true });
    if (items.length) store(left);
  }

  window.addEventListener("online", flush);
  document.addEventListener("htmx:afterRequest", (event) => {
    const config = event.detail.requestConfig;
    if (event.detail.successful && config && config.verb === "get" && waiting()) flush();
  });
  // Another tab of this phone kept or sent something.
  window.addEventListener("storage", (event) => {
    if (event.key === STORE) render();
  });

  list.dataset.queueActive = "";
  dropOthersOld();
  render();
  if (waiting()) flush();
})();
