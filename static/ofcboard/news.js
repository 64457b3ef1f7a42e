// The table's moments (#news on the night page): each phone shows what happened since
// the last round went through until its owner starts the next entry (focuses or types
// in the total box, or saves); what they have seen stays hidden on the next polls.
// A moment a poll brings from another phone buzzes the phone once, where it can.
// announce.js says the new moments' words in the page's one live region.
(function () {
  "use strict";

  const news = () => document.getElementById("news");
  const store = (() => {
    try { return window.sessionStorage; } catch (e) { return null; }
  })();
  const seenKey = () => `ofc-news-seen-${(news() || { dataset: {} }).dataset.night || ""}`;

  function seen() {
    try { return new Set(JSON.parse((store && store.getItem(seenKey())) || "[]")); } catch (e) { return new Set(); }
  }

  function remember(keys) {
    if (!store) return;
    const all = [...seen(), ...keys].slice(-50);
    try { store.setItem(seenKey(), JSON.stringify(all)); } catch (e) { /* private mode: shown until the next poll */ }
  }

  const moments = () => [...document.querySelectorAll("#news [data-moment]")];

  // Hide what this phone's owner has seen; the block goes when nothing is left.
  function show() {
    const box = news();
    if (!box) return;
    const hidden = seen();
    let left = 0;
    for (const moment of moments()) {
      moment.hidden = hidden.has(moment.dataset.moment);
      if (!moment.hidden) left += 1;
    }
    box.hidden = left === 0;
  }

  // The owner starts the next entry: what the block says now has been seen.
  function dismiss() {
    const shown = moments().filter((moment) => !moment.hidden).map((moment) => moment.dataset.moment);
    if (!shown.length) return;
    remember(shown);
    show();
  }

  // What the page showed before a poll, so only what it brings buzzes.
  let known = new Set(moments().map((moment) => moment.dataset.moment));

  function buzz(fresh) {
    if (!fresh.some((moment) => !moment.hasAttribute("data-mine"))) return;
    if (typeof navigator.vibrate !== "function") return;
    try { navigator.vibrate([120, 60, 120]); } catch (e) { /* a browser that refuses is fine */ }
  }

  document.addEventListener("htmx:afterSettle", (event) => {
    const all = moments();
    const fresh = all.filter((moment) => !known.has(moment.dataset.moment));
    known = new Set(all.map((moment) => moment.dataset.moment));
    show();
    const config = event.detail.requestConfig;
    if (fresh.length && config && config.verb === "get") buzz(fresh.filter((moment) => !moment.hidden));
  });

  // A tap or a key in the total box, never the focus a swap gives it back by itself.
  // A tap hides the block only once it has landed: hidden at pointerdown, the block
  // took the form 70-80 px up under the finger, and the click hit the button below.
  const isTotal = (target) => target && target.matches && target.matches("#entry-form input[name=points]");
  let tapping = false;
  document.addEventListener("pointerdown", (event) => { if (isTotal(event.target)) tapping = true; }, true);
  const landed = () => {
    if (!tapping) return;
    tapping = false;
    window.setTimeout(dismiss, 0);
  };
  document.addEventListener("click", landed, true);
  document.addEventListener("pointercancel", landed, true);
  for (const type of ["keydown", "input"]) {
    document.addEventListener(type, (event) => { if (isTotal(event.target)) dismiss(); }, true);
  }
  document.addEventListener("submit", (event) => {
    if (event.target.closest && event.target.closest("#entry-form")) dismiss();
  }, true);

  show();
})();
