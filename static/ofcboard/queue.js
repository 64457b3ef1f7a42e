// Saves kept on the phone while the Wi-Fi is gone, and sent by themselves when it is back.
//
// Every save form ([data-queue-form]) carries a key made here, one per intended save and
// the same for every retry of it, so the server records it once however often it
// arrives. A save that cannot reach the server is kept in localStorage (it survives a
// reload, a closed tab, a locked phone) and sent again on the browser's `online` event,
// after any poll that reaches the server, and when the page opens. The server answers a
// queued send in data (scorekeeper/views/offline.py): saved, or refused with a reason,
// which is shown and the save dropped. Without this file the forms post as they always did.
(function () {
  "use strict";

  const STORE = "ofcboard.queue";
  const list = document.querySelector("[data-queue]");
  if (!list || !window.localStorage) return;
  const user = list.dataset.user;
  const notices = []; // answers to show until dismissed: {text, bad}
  let flushing = false;

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

  function fieldsOf(form) {
    return Array.from(new FormData(form)).filter(([name]) => name !== "csrfmiddlewaretoken");
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

  function itemOf(form) {
    keyFor(form);
    const fields = fieldsOf(form);
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
  function keep(item) {
    const items = load().filter((other) => !sameSlot(item, other));
    items.push(item);
    store(items);
    render();
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
      line.textContent = say("waiting", { what: what(item), round: item.round });
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
    list.hidden = list.childElementCount === 0;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // "offline": try again later; "kept": the server could not take it yet; else the answer.
  async function send(item) {
    let response;
    try {
      response = await fetch(item.url, {
        method: "POST",
        body: new URLSearchParams(item.fields),
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      });
    } catch (error) {
      return { state: "offline" };
    }
    const isJson = (response.headers.get("Content-Type") || "").startsWith("application/json");
    if (response.status === 403) return { state: "kept", text: say("outdated", {}) };
    if (response.status === 404) return { state: "refused", reason: "" };
    if (!isJson) {
      // A login page (the session ended) or a server error: keep it for the next try.
      return { state: "kept", text: response.redirected ? say("login", {}) : "" };
    }
    const answer = await response.json().catch(() => ({}));
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

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      for (const item of load().filter((other) => other.user === user)) {
        const outcome = await send(item);
        if (outcome.state === "offline") break;
        if (outcome.state === "kept") {
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
    } finally {
      flushing = false;
      render();
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

  // The night page's total: htmx posts it; one that cannot reach the server is kept.
  document.addEventListener("htmx:sendError", (event) => {
    const config = event.detail.requestConfig;
    const form = event.detail.elt && event.detail.elt.closest("form[data-queue-form]");
    if (form && config && config.verb === "post") keep(itemOf(form));
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
      keep(item);
      if (outcome.text) notices.push({ text: outcome.text, bad: true });
      render();
    }
  });

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
  render();
  if (waiting()) flush();
})();
