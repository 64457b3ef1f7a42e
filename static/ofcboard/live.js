// Live pages told of changes rather than asking for them.
//
// A polled element with data-stream="<url>" (the night, its cards, its settlement, the
// group, the big screen) listens on that stream (Server-Sent Events, held by the
// front: ofcboard/front.py). Each message says the page's new version ("version 58");
// when it is not the one the element shows, the element asks for its fragment at once
// (the "ofc:pushed" trigger of its hx-trigger), through the same view as its poll.
//
// The poll stays as the safety net: while the stream is open, a timed poll goes out
// only every SAFETY_POLL_MS; while it is not (Wi-Fi gone, phone locked, the stream
// refused), every 2 s as before. The stream is closed while the page is hidden and
// opened again when it is shown, with one poll at once to catch up on what it missed.
(function () {
  "use strict";

  const SAFETY_POLL_MS = 30000;
  const REOPEN_MS = 5000;
  const streams = new Map();  // url -> EventSource
  const lastAsked = new Map();  // element id -> time of its last request

  function shownVersion(element) {
    const url = new URL(element.getAttribute("hx-get"), window.location.href);
    return url.searchParams.get("version");
  }

  function listeners(url) {
    return document.querySelectorAll('[data-stream="' + CSS.escape(url) + '"]');
  }

  function isOpen(url) {
    const source = streams.get(url);
    return Boolean(source) && source.readyState === EventSource.OPEN;
  }

  // Whether the page is told of changes (open) or asks for them (closed): for the
  // browser tests, and for anyone reading the page's source.
  function say(state) {
    document.documentElement.dataset.streamState = state;
  }

  function askNow(url, version) {
    listeners(url).forEach((element) => {
      if (version === undefined || shownVersion(element) !== version) {
        htmx.trigger(element, "ofc:pushed");
      }
    });
  }

  function open(url) {
    if (streams.has(url) || document.hidden) return;
    const source = new EventSource(url);
    streams.set(url, source);
    source.addEventListener("open", () => {
      say("open");
      askNow(url);  // what happened while it was closed
    });
    source.addEventListener("message", (event) => {
      const said = /^version (\S+)$/.exec(event.data);
      if (said) askNow(url, said[1]);
    });
    source.addEventListener("error", () => {
      say("closed");
      // The browser reconnects by itself after a dropped connection; a stream refused
      // outright (no front, a 404) is closed for good, and tried again later.
      if (source.readyState === EventSource.CLOSED) {
        close(url);
        window.setTimeout(() => { if (listeners(url).length) open(url); }, REOPEN_MS);
      }
    });
  }

  function close(url) {
    const source = streams.get(url);
    if (source) source.close();
    streams.delete(url);
    say("closed");
  }

  function openAll() {
    document.querySelectorAll("[data-stream]").forEach((element) => open(element.dataset.stream));
  }

  // A timed poll of an element whose stream is open waits for the safety interval.
  document.addEventListener("htmx:confirm", (event) => {
    const element = event.detail.elt;
    const url = element.dataset && element.dataset.stream;
    if (!url) return;
    const trigger = event.detail.triggeringEvent;
    const pushed = trigger && trigger.type === "ofc:pushed";
    const key = element.id || url;
    const since = Date.now() - (lastAsked.get(key) || 0);
    if (!pushed && isOpen(url) && since < SAFETY_POLL_MS) {
      event.preventDefault();
      return;
    }
    lastAsked.set(key, Date.now());
  });

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      Array.from(streams.keys()).forEach(close);
    } else {
      openAll();
    }
  });
  // A swapped-in page part may bring a stream the page had not opened yet.
  document.addEventListener("htmx:load", openAll);
  window.addEventListener("pagehide", () => Array.from(streams.keys()).forEach(close));
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openAll);
  } else {
    openAll();
  }
}());
