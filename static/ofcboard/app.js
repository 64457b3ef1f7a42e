// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";

  // The page's words, translated with it: base.html puts them on <body> (English
  // without them), so they work offline too.
  const word = (name, english) => (document.body && document.body.dataset[name]) || english;

  function copyText(input, button) {
    const done = () => {
      const label = button.textContent;
      button.textContent = word("textCopied", "Copied");
      setTimeout(() => { button.textContent = label; }, 1500);
    };
    // The clipboard API needs HTTPS; on the table's plain-HTTP Wi-Fi fall back to a selection.
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value ?? input.textContent).then(done);
      return;
    }
    if (input.select) { input.select(); } else {
      const range = document.createRange();
      range.selectNodeContents(input);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
    try { document.execCommand("copy"); done(); } catch (e) { /* the text stays selected */ }
  }

  document.addEventListener("click", (event) => {
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const target = document.querySelector(copy.dataset.copy);
      if (target) copyText(target, copy);
      return;
    }
    const sign = event.target.closest("[data-flip-sign]");
    if (sign) {
      const input = document.querySelector(sign.dataset.flipSign);
      if (!input) return;
      // Whatever sign was typed (-, the real minus −, or +), the button turns it over.
      const value = input.value.trim();
      const digits = value.replace(/^[-−+]\s*/, "");
      input.value = /^[-−]/.test(value) ? digits : "-" + digits;
      input.focus();
    }
  });

  // The connection banner sticks to the top of the screen and, in German or Dutch on a
  // 320 px phone, takes two or three lines: whatever gets focus scrolls clear of it at
  // the height it has (html's scroll-padding reads --banner-room).
  const topBanner = document.getElementById("connection");
  if (topBanner && "ResizeObserver" in window) {
    new ResizeObserver(() => {
      document.documentElement.style.setProperty("--banner-room", `${topBanner.offsetHeight}px`);
    }).observe(topBanner);
  }

  // A flaky Wi-Fi must never look like a saved total: say so where the person is looking.
  function showProblem(element, text) {
    const form = element.closest("form");
    const banner = document.getElementById("connection");
    if (banner) { banner.textContent = text; banner.hidden = false; }
    if (!form) return;
    let note = form.querySelector(".send-error");
    if (!note) {
      note = document.createElement("p");
      note.className = "error send-error";
      note.setAttribute("role", "alert");
      form.appendChild(note);
    }
    note.textContent = text;
  }

  // queue.js keeps this save on the phone, sends it again and says so beside the form.
  function queued(event) {
    const posting = event.detail.requestConfig && event.detail.requestConfig.verb === "post";
    const form = event.detail.elt.closest("form[data-queue-form]");
    return posting && form && document.querySelector("[data-queue-active]");
  }

  document.addEventListener("htmx:sendError", (event) => {
    const polling = event.detail.requestConfig && event.detail.requestConfig.verb === "get";
    if (queued(event)) return;
    showProblem(event.detail.elt, polling
      ? word("textRetrying", "No connection to the table's server. Retrying…")
      : word("textNoConnection", "Not saved: no connection. Check the Wi-Fi and tap Save again."));
  });
  document.addEventListener("htmx:responseError", (event) => {
    const status = event.detail.xhr && event.detail.xhr.status;
    // The server could not take it now (queue.js sends it again); a 4xx says no in words.
    if ([502, 503, 504].includes(status) && queued(event)) return;
    const polling = event.detail.requestConfig && event.detail.requestConfig.verb === "get";
    if ([502, 503, 504].includes(status) && polling) {
      // A poll: the next one is on its way; nothing was being saved.
      showProblem(event.detail.elt, word("textServerBusy", "The server cannot answer for a moment. The page tries again by itself."));
      return;
    }
    const outOfDate = status === 403;
    showProblem(event.detail.elt, outOfDate
      ? word("textOutOfDate", "Not saved: this page is out of date (a new login?). Reload the page and save again.")
      : word("textServerProblem", "Not saved: the server had a problem. Tap Save again."));
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.successful) return;
    const banner = document.getElementById("connection");
    if (banner) banner.hidden = true;
    document.querySelectorAll(".send-error").forEach((note) => note.remove());
  });

  document.addEventListener("submit", (event) => {
    const message = event.target.dataset && event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  });

  // Installable over HTTPS ("running it for real"): the service worker caches our static
  // files and the last night page. Browsers give no service worker on the table's plain HTTP.
  const manifest = document.querySelector("link[rel=manifest][data-service-worker]");
  if (manifest && "serviceWorker" in navigator && location.protocol === "https:") {
    navigator.serviceWorker.register(manifest.dataset.serviceWorker).catch(() => {
      /* without it the app works as on plain HTTP */
    });
  }
})();
