// Live pages told of changes rather than asking for them, and never shown older than
// they were.
//
// A polled element with data-stream="<url>" (the night, its cards, its settlement, the
// group, the big screen) listens on that stream (Server-Sent Events, held by the
// front: ofcboard/front.py). Each message says the page's new version ("version 58");
// when the page shows an older one, the element asks for its fragment (the
// "ofc:pushed" trigger of its hx-trigger), through the same view as its poll. A running
// night's message carries the night page's live part too, as each member's phone would
// fetch it (scorekeeper/views/pushed_parts.py): the night page shows it as if it had
// fetched it, and asks only when the part is not there for it (a new round's entry
// form is the phone's own, a language the server did not carry) or the phone is busy.
//
// The poll stays as the safety net: while the stream is open, a timed poll goes out
// only SAFETY_POLL_MS after the element was last asked for or shown from a message;
// while it is not (Wi-Fi gone, phone locked, the stream refused), every 2 s as before.
// The stream is closed while the page is hidden and opened again when it is shown,
// with one poll at once to catch up on what it missed. When the front ends a stream
// and the browser opens it again by itself, nothing is asked: the front says the
// channel's last message first if one came meanwhile.
//
// A stream's address carries a pass the server signed when it drew the part, good for
// an hour or two (scorekeeper/site/front_pass.py), so a part swapped in may name a new
// one: the stream no part names any more is closed and the new one opened. A stream
// refused (its pass over, or the front busy) is tried again after REOPEN_MS at the
// address its part names then, the part first drawn anew, which brings a fresh pass.
//
// The night page's parts each say the night's version they were drawn from
// (data-version; the server draws a page from one moment, reads/nights.py), and every
// live answer says its own (the OFC-Version header). Phones at a table save at the same
// instant, so answers cross: a part is never replaced by an older one, an answer for a
// part that a newer one already replaced is dropped, and a push that comes while this
// phone is fetching, saving or has a finger on the screen is remembered and fetched once
// that is over, so the newest version always wins and nothing moves under a thumb.
(function () {
  "use strict";

  const SAFETY_POLL_MS = 30000;
  const REOPEN_MS = 5000;
  const VERSION_HEADER = "OFC-Version";
  const streams = new Map();  // url -> EventSource
  const renewing = new Set();  // refused streams whose parts are to be drawn anew
  const drawnWhole = new WeakSet();  // the parts asked for whole, until answered
  const lastAsked = new Map();  // element id -> time of its last request
  let wanted = null;  // the newest version a push announced, as a number
  const underWay = new Set();  // live fetches and saves not answered yet (their XHRs)
  let fingerDown = false;
  let owed = false;  // a fetch held back until the phone is idle again

  const asNumber = (value) => (/^\d+$/.test(value || "") ? Number(value) : null);
  const parts = () => [...document.querySelectorAll("[data-version]")]
    .filter((part) => asNumber(part.dataset.version) !== null);

  // The oldest moment any part of the page shows: what the page asks to be brought from.
  function oldestShown() {
    const versions = parts().map((part) => asNumber(part.dataset.version));
    return versions.length ? Math.min(...versions) : null;
  }

  function urlVersion(element) {
    const url = new URL(element.getAttribute("hx-get"), window.location.href);
    return url.searchParams.get("version");
  }

  function isBehind(element, version) {
    const shown = oldestShown();
    if (shown !== null && asNumber(version) !== null) return asNumber(version) > shown;
    return urlVersion(element) !== version;  // a group's fingerprint has no order
  }

  const isLive = (element) => Boolean(element && element.matches && element.matches("[hx-trigger*='ofc:pushed']"));
  const liveElements = () => document.querySelectorAll("[hx-trigger*='ofc:pushed']");
  // htmx listens on a swapped-in part only once the swap has settled (htmx:load): until
  // then a trigger would go nowhere, so what is asked of it waits.
  const ready = new WeakSet();
  const notReady = () => [...liveElements()].some((element) => !ready.has(element));
  const busy = () => underWay.size > 0 || fingerDown || notReady();

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

  function ask(element) {
    if (busy()) {
      owed = true;
      return;
    }
    htmx.trigger(element, "ofc:pushed");
  }

  function askNow(url, version) {
    listeners(url).forEach((element) => {
      if (version === undefined || isBehind(element, version)) ask(element);
    });
  }

  // Once the phone is idle again: what was held back, or a push newer than the page.
  function catchUp() {
    if (busy()) return;
    const shown = oldestShown();
    const behind = wanted !== null && shown !== null && wanted > shown;
    if (!owed && !behind) return;
    owed = false;
    liveElements().forEach((element) => htmx.trigger(element, "ofc:pushed"));
  }

  function open(url) {
    if (streams.has(url) || renewing.has(url) || document.hidden) return;
    const source = new EventSource(url);
    streams.set(url, source);
    let reopened = false;
    source.addEventListener("open", () => {
      say("open");
      // What happened while it was closed. When the front ends a stream and the browser
      // opens it again at once, the front's first word on it is the channel's last
      // message, if any came meanwhile: nothing to ask.
      if (!reopened) askNow(url);
      reopened = true;
    });
    source.addEventListener("message", (event) => {
      const [first, ...rest] = event.data.split("\n");
      const said = /^version (\S+)$/.exec(first);
      if (!said) return;
      const version = asNumber(said[1]);
      if (version !== null && (wanted === null || version > wanted)) wanted = version;
      const carried = rest.length ? parsed(rest.join("\n")) : null;
      listeners(url).forEach((element) => {
        if (!isBehind(element, said[1])) return;
        if (!(carried && showCarried(element, version, carried))) ask(element);
      });
    });
    source.addEventListener("error", () => {
      say("closed");
      // The browser reconnects by itself after a dropped connection; a stream refused
      // outright (its pass over, the front busy) is closed for good, and tried again
      // later with the pass its part brings then.
      if (source.readyState === EventSource.CLOSED) {
        close(url);
        window.setTimeout(() => renew(url), REOPEN_MS);
      }
    });
  }

  function parsed(text) {
    try { return JSON.parse(text); } catch (error) { return null; }
  }

  // The live part a message carries (views/pushed_parts.py), shown as if this phone had
  // fetched it: only when it is the part this element fetches, in the page's language,
  // for the round and seat the page shows (else the answer would bring a new entry
  // form, whose token is this phone's own), and while nothing is under way or under a
  // thumb. It goes through the same steps as a fetched answer (htmx:beforeSwap, the
  // swap, its events), so every guard and every reader of answers sees it as one.
  function showCarried(element, version, carried) {
    if (version === null || !element.id || busy()) return false;
    const address = new URL(element.getAttribute("hx-get"), window.location.href);
    if (carried.part !== address.pathname) return false;  // another page's part
    const parts = carried.in && carried.in[document.documentElement.lang];
    const me = document.body.dataset.me || "";
    const asked = address.searchParams;
    const form = document.querySelector("#entry-form input[name=round]");
    const round = form ? form.value : asked.get("round");
    const seat = carried.seats && carried.seats[me];
    if (!parts || String(carried.round ?? "") !== (round || "")) return false;
    if (String(seat ?? "") !== (asked.get("seat") || "")) return false;
    const own = parts.own[parts.of[me] ?? 0];
    const html = own.map((piece) => (typeof piece === "number" ? parts.shared[piece] : piece)).join("");
    const answer = {
      elt: element,
      target: element,
      xhr: { getResponseHeader: (name) => (name === VERSION_HEADER ? String(version) : null) },
      requestConfig: { verb: "get", elt: element, carried: true },
      serverResponse: html,
      shouldSwap: true,
      isError: false,
    };
    if (!htmx.trigger(element, "htmx:beforeSwap", answer) || !answer.shouldSwap) return true;
    lastAsked.set(element.id, Date.now());
    htmx.swap(element, answer.serverResponse, { swapStyle: "outerHTML" }, { eventInfo: answer, contextElement: element });
    return true;
  }

  function close(url) {
    const source = streams.get(url);
    if (source) source.close();
    streams.delete(url);
    say("closed");
  }

  // The parts that still name a refused stream are asked for whole (no version: the
  // server draws them even when nothing changed), and bring a fresh pass; the stream
  // they name is opened once they are in (htmx:load), or the next ask is whole again
  // when the answer did not come (htmx:afterRequest below).
  function renew(url) {
    const parts = listeners(url);
    if (!parts.length) {
      openAll();  // a part swapped in meanwhile names another
      return;
    }
    renewing.add(url);
    parts.forEach(ask);
  }

  // The streams the page names now: one no part names any more is closed (a part
  // swapped in brought a new pass), and each named is open.
  function openAll() {
    const named = new Set([...document.querySelectorAll("[data-stream]")].map((element) => element.dataset.stream));
    [...streams.keys()].filter((url) => !named.has(url)).forEach(close);
    named.forEach(open);
  }

  // A live fetch waits while another is under way, a save is, or a finger is down; a
  // timed poll of an element whose stream is open waits for the safety interval.
  document.addEventListener("htmx:confirm", (event) => {
    const element = event.detail.elt;
    if (!isLive(element)) return;
    if (busy()) {
      event.preventDefault();
      owed = true;
      return;
    }
    const url = element.dataset.stream;
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

  // A live fetch asks from the oldest moment the page shows, and says which round the
  // entry form on the screen is for, so the answer brings a new form when that round
  // is no longer the open one, whatever the rest of the page shows.
  document.addEventListener("htmx:configRequest", (event) => {
    if (!isLive(event.detail.elt) || event.detail.verb !== "get") return;
    const shown = oldestShown();
    const url = new URL(event.detail.path, window.location.href);
    if (renewing.delete(event.detail.elt.dataset.stream)) {
      url.searchParams.delete("version");
      drawnWhole.add(event.detail.elt);
    } else if (shown !== null) url.searchParams.set("version", String(shown));
    const round = document.querySelector("#entry-form input[name=round]");
    if (round && url.searchParams.has("round")) url.searchParams.set("round", round.value);
    event.detail.path = url.pathname + url.search;
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const config = event.detail.requestConfig;
    const xhr = event.detail.xhr;
    const saving = config && config.verb !== "get";
    if (!xhr || !(saving || isLive(event.detail.elt))) return;
    underWay.add(xhr);
    xhr.addEventListener("loadend", () => {
      underWay.delete(xhr);
      window.setTimeout(catchUp, 0);
    });
  });

  function answerVersion(detail) {
    const xhr = detail.xhr;
    return xhr ? asNumber(xhr.getResponseHeader(VERSION_HEADER)) : null;
  }

  // An answer to a live fetch replaces its part only when it is not older than what
  // the part shows, the part is still on the page, and no finger is down on it. A
  // save's answer is always shown (it says what became of the save), in the form on the
  // page now when the one it was sent from was replaced meanwhile.
  function guard(event) {
    const detail = event.detail;
    if (!detail.shouldSwap) return;
    const target = detail.target;
    const onPage = target && document.body.contains(target);
    const saving = detail.requestConfig && detail.requestConfig.verb !== "get";
    if (saving) {
      const now = onPage ? target : target && target.id && document.getElementById(target.id);
      if (!now) return;
      const version = answerVersion(detail);
      const shown = asNumber(now.dataset && now.dataset.version);
      if (version !== null && shown !== null && version < shown) {
        // The page already shows a later moment (a round that went through since):
        // only the answer's words come in, never its older form.
        detail.shouldSwap = false;
        carryWords(detail.serverResponse, now);
        owed = true;
      } else if (!onPage) {
        // htmx would look for the answer's other parts beside the replaced form, off
        // the page: the answer goes in as if the form on the page now had asked.
        detail.shouldSwap = false;
        htmx.swap(now, detail.serverResponse, { swapStyle: "outerHTML" });
      }
      return;
    }
    if (!isLive(target)) return;
    const version = answerVersion(detail);
    const shown = asNumber(target.dataset.version);
    if (!onPage) {
      detail.shouldSwap = false;
    } else if (version !== null && shown !== null && version < shown) {
      detail.shouldSwap = false;
    } else if (fingerDown) {
      detail.shouldSwap = false;
      owed = true;
    }
  }

  // What a save's answer said went wrong ("your −2 was not used"), into the form shown.
  function carryWords(html, form) {
    const box = form.querySelector("#entry-errors");
    if (!box) return;
    const answer = new DOMParser().parseFromString(html, "text/html");
    const words = [...answer.querySelectorAll("#entry-errors .error")];
    if (words.length) box.replaceChildren(...words.map((word) => document.importNode(word, true)));
  }

  // Listened for on the parts themselves: an answer for a part already replaced comes
  // to the part off the page, where no event reaches the document.
  function guardParts(root) {
    const found = root.querySelectorAll ? [...root.querySelectorAll("[data-version], [hx-trigger*='ofc:pushed']")] : [];
    if (root.matches && root.matches("[data-version], [hx-trigger*='ofc:pushed']")) found.push(root);
    found.forEach((part) => {
      if (part.ofcGuarded) return;
      part.ofcGuarded = true;
      part.addEventListener("htmx:beforeSwap", guard);
    });
  }
  function loaded(root) {
    guardParts(root);
    const found = root.querySelectorAll ? [...root.querySelectorAll("[hx-trigger*='ofc:pushed']")] : [];
    if (isLive(root)) found.push(root);
    found.forEach((element) => ready.add(element));
    window.setTimeout(catchUp, 0);
  }
  document.addEventListener("htmx:load", (event) => loaded(event.target));
  // htmx takes the page in once it has loaded, and says so with htmx:load on <body>.
  if (document.readyState === "loading") guardParts(document); else loaded(document);

  // The same for each part an answer brings along (out of band), saves' answers too.
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const detail = event.detail;
    const fragment = detail.fragment;
    const incoming = fragment && (fragment.nodeType === 11 ? fragment.firstElementChild : fragment);
    const version = incoming && incoming.dataset ? asNumber(incoming.dataset.version) : null;
    const shown = detail.target.dataset ? asNumber(detail.target.dataset.version) : null;
    if (version !== null && shown !== null && version < shown) detail.shouldSwap = false;
  });

  // A live answer drawn at version V also vouches for the parts it did not bring: the
  // server sends the entry form only when its round changed (never under a thumb).
  document.addEventListener("htmx:afterSwap", (event) => {
    if (!isLive(event.detail.elt)) return;
    const version = answerVersion(event.detail);
    if (version === null) return;
    parts().forEach((part) => {
      if (asNumber(part.dataset.version) < version) part.dataset.version = String(version);
    });
  });

  // A finger on the screen holds every live swap until its tap has landed.
  document.addEventListener("pointerdown", () => { fingerDown = true; }, true);
  const lifted = () => {
    if (!fingerDown) return;
    fingerDown = false;
    window.setTimeout(catchUp, 0);  // after the click this pointer makes
  };
  document.addEventListener("pointerup", lifted, true);
  document.addEventListener("pointercancel", lifted, true);

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      Array.from(streams.keys()).forEach(close);
    } else {
      openAll();
    }
  });
  // A swapped-in page part may bring a stream the page had not opened yet.
  document.addEventListener("htmx:load", openAll);
  // A part asked for whole that got no answer (the part swapped in instead is off the
  // page by now, where no event reaches the document): asked whole again.
  document.addEventListener("htmx:afterRequest", (event) => {
    const element = event.detail.elt;
    if (!drawnWhole.has(element)) return;
    drawnWhole.delete(element);
    if (!event.detail.successful && element.dataset.stream) renewing.add(element.dataset.stream);
  });
  window.addEventListener("pagehide", () => Array.from(streams.keys()).forEach(close));
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openAll);
  } else {
    openAll();
  }
}());
