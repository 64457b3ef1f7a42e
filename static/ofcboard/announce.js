// What a poll brought, said in words in the page's one polite live region (#announce,
// in base.html, which no swap replaces), and focus kept where a person can find it
// after a swap or a save, never dropped to <body>.
(function () {
  "use strict";

  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);
  const clean = (text) => text.replace(/\s+/g, " ").trim();

  function say(text) {
    const region = document.getElementById("announce");
    if (!region || !text) return;
    // The same words again (a second "Waiting for Cora.") must still be read.
    region.textContent = region.textContent === text ? text + "\u00a0" : text;
  }

  // What a polled area says now: its rounds played, each seat's line, its status.
  function snapshot(area) {
    const lines = {};
    for (const line of area.querySelectorAll("[data-seat]")) {
      const points = line.querySelector(".pts");
      lines[line.dataset.seat] = line.classList.contains("in") && points ? clean(points.textContent) : "";
    }
    const selector = area.dataset.announce;
    const status = selector
      ? [...document.querySelectorAll(selector)].map((el) => clean(el.textContent)).filter(Boolean).join(" ")
      : "";
    // The table's moments (#news, swapped with the area): what each says, by its key.
    const moments = {};
    for (const moment of document.querySelectorAll("#news [data-moment]")) {
      moments[moment.dataset.moment] = clean(moment.textContent);
    }
    return { played: Number(area.dataset.roundsPlayed || 0), lines, status, moments };
  }

  function news(before, after, area) {
    const parts = [];
    const fresh = Object.keys(after.moments).filter((key) => !(key in before.moments));
    if (fresh.length) {
      // "Round 5 went through · Anna +6 · …", "Anna fixed round 2: …": the words every phone shows.
      for (const key of fresh) parts.push(after.moments[key]);
    } else if (after.played > before.played && area.dataset.sayThrough) {
      parts.push(area.dataset.sayThrough);
    } else if (after.played === before.played) {
      const saved = (document.getElementById("announce") || { dataset: {} }).dataset.saySaved;
      for (const [name, points] of Object.entries(after.lines)) {
        if (points && points !== before.lines[name] && saved) parts.push(fill(saved, { name, points }));
      }
    }
    if (parts.length || after.status !== before.status) parts.push(after.status);
    return clean(parts.join(" "));
  }

  const polled = (el) => el && el.dataset && el.dataset.announce !== undefined;
  let before = null;
  let focused = null; // what had focus before a swap: {id, inEntry}

  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    before = polled(target) ? snapshot(target) : null;
    const active = document.activeElement;
    const entry = document.getElementById("entry-form");
    focused = active && active !== document.body
      ? { id: active.id, inEntry: Boolean(entry && entry.contains(active)), element: active } : null;
  });

  document.addEventListener("htmx:afterSettle", (event) => {
    const id = event.detail.target && event.detail.target.id;
    const area = id ? document.getElementById(id) : null;
    if (before && polled(area)) say(news(before, snapshot(area), area));
    before = null;
    const config = event.detail.requestConfig;
    keepFocus(id, Boolean(config && config.verb === "post"));
    focused = null;
  });

  // Focus lost with the element a swap replaced goes to what says what happened (the
  // saved line, an error) after a save, else back to the same field, or the total.
  function keepFocus(id, saved) {
    const entry = document.getElementById("entry-form");
    const said = entry && (entry.querySelector("#entry-errors .error") || entry.querySelector(".saved"));
    const field = entry && entry.querySelector("input[name=points]");
    const active = document.activeElement;
    // After Save, what was saved (or why not) is read first, even where htmx gave
    // the field its focus back.
    if (id === "entry-form" && saved && said) {
      focusOn(said);
      // Where the round stands now (the sum that is off, who is left), said once.
      const live = document.getElementById("live");
      if (live && live.dataset.announce) {
        say(clean([...document.querySelectorAll(live.dataset.announce)].map((el) => el.textContent).join(" ")));
      }
      return;
    }
    if (active && active !== document.body && shown(active)) return;
    let target = null;
    if (id === "entry-form") target = field;
    else if (focused && focused.id && document.getElementById(focused.id)) target = document.getElementById(focused.id);
    else if (focused && focused.inEntry) target = field;
    if (target) focusOn(target);
    // What had focus is still on the page but went out of sight with the swap (the
    // card picker of a round that went through): the swapped area's first link or
    // button takes it.
    const area = id ? document.getElementById(id) : null;
    const hidden = focused && focused.element.isConnected && !shown(focused.element);
    const lost = document.activeElement === document.body || !shown(document.activeElement);
    const next = area && area.querySelector("a[href], button");
    if (hidden && lost && next) focusOn(next);
  }

  // Not taken off the page's layout (an older browser without checkVisibility: assumed).
  const shown = (element) => !element.checkVisibility || element.checkVisibility();

  function focusOn(target) {
    if (!target.matches("a, button, input, select, textarea, [tabindex]")) target.setAttribute("tabindex", "-1");
    target.focus();
  }

  // A page reached by a plain post (a fix, an undo, cards saved) opens on what happened.
  function focusMessages() {
    const messages = document.getElementById("messages");
    if (!messages || !messages.querySelector("li")) return;
    messages.setAttribute("tabindex", "-1");
    messages.focus();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", focusMessages);
  else focusMessages();
})();
