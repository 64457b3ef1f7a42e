// The service worker, over HTTPS only (scorekeeper/views/offline.py renders it).
// Static files come from the cache first; pages from the network first. The night page
// that loaded last is kept, so that without a connection the phone still opens it (the
// one asked for, or else that last one) and shows what it has queued.
//
// Signed-in pages are sent "private, no-store": this copy is the one exception, and it
// lasts no longer than the session. It is one page (not one a night), and it is deleted
// at logout (queue.js deletes PAGE_CACHE before the logout form is sent, the logout
// answer's Clear-Site-Data empties the caches where the browser honours it) and whenever
// the login page is opened here (a session that ended, or another person on the phone).
"use strict";

// Both names change with the worker: a new worker deletes every other cache of ours on
// activate, so no page kept by an older one outlives it.
const STATIC_CACHE = "ofcboard-static-{{ version }}";
const PAGE_CACHE = "ofcboard-pages-{{ version }}";
const STATIC_URL = {{ static_url|safe }};
const LOGIN_URL = {{ login_url|safe }};
const FILES = {{ files|safe }};
const NIGHT_PAGE = /^\/nights\/\d+\/$/;

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

// The one night page kept: this one, in place of any other.
async function keep(path, response) {
  const cache = await caches.open(PAGE_CACHE);
  const kept = await cache.keys();
  await Promise.all(kept.filter((request) => new URL(request.url).pathname !== path)
    .map((request) => cache.delete(request)));
  await cache.put(path, response);
}

async function page(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    const landed = new URL(response.url || request.url).pathname;
    if (url.pathname === LOGIN_URL || landed === LOGIN_URL) {
      await caches.delete(PAGE_CACHE); // nobody is signed in here now
    } else if (response.ok && NIGHT_PAGE.test(url.pathname) && !response.redirected) {
      await keep(url.pathname, response.clone());
    }
    return response;
  } catch (error) {
    const cache = await caches.open(PAGE_CACHE);
    const kept = (await cache.match(url.pathname)) || (await cache.matchAll())[0];
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
