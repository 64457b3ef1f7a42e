// The service worker, over HTTPS only (scorekeeper/views/offline.py renders it).
// Static files come from the cache first; pages from the network first. A night page
// that loaded is kept, so that without a connection the phone still opens it (the
// last one when the one asked for was never opened) and shows what it has queued.
"use strict";

const STATIC_CACHE = "ofcboard-static-{{ version }}";
const PAGE_CACHE = "ofcboard-pages";
const STATIC_URL = {{ static_url|safe }};
const FILES = {{ files|safe }};
const NIGHT_PAGE = /^\/nights\/\d+\/$/;
const LAST_NIGHT = "last-night-page";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(FILES)));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((names) => Promise.all(
      names.filter((name) => name !== STATIC_CACHE && name !== PAGE_CACHE)
        .map((name) => caches.delete(name))
    )).then(() => self.clients.claim())
  );
});

async function fromCacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(STATIC_CACHE);
    cache.put(request, response.clone());
  }
  return response;
}

async function page(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    if (response.ok && NIGHT_PAGE.test(url.pathname) && !response.redirected) {
      const cache = await caches.open(PAGE_CACHE);
      await cache.put(url.pathname, response.clone());
      await cache.put(LAST_NIGHT, response.clone());
    }
    return response;
  } catch (error) {
    const cache = await caches.open(PAGE_CACHE);
    const kept = (NIGHT_PAGE.test(url.pathname) && await cache.match(url.pathname))
      || await cache.match(LAST_NIGHT);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_URL)) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});
