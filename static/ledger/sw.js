// Tablestakes' service worker. Served at /sw.js by ledger/views/pwa.py, which puts
// self.TABLESTAKES = {version, static, precache, offline} in front of this file.
//
// - The app's static files (kept at install, named by the release) come from the cache
//   first: a new release has a new version, so new caches, and the old ones are deleted
//   when the new worker takes over.
// - Pages come from the network first. A scorekeeper's pages (home, a table, an evening, a
//   game) are kept when they load, and shown from the cache only when the network cannot be
//   reached; the page's script then says that it is offline and what it shows is as last
//   loaded. Any other page the phone has not kept gets the offline page.
// - The phone's core (CONFIG.core: Pyodide's files and ledger/core/rules.<hash>.zip, fetched
//   by static/ledger/core/worker.mjs when a game page is idle) is kept in its own cache,
//   CORE, across releases: each file is downloaded once, and a new release drops only the
//   files it no longer names (a changed core has a new hashed name; Pyodide's folder is
//   named by its version), so it downloads only what changed.
// - Nothing else is touched: no POST (hands are sent by the page itself, see offline.js;
//   where the browser can, a POST does not come here at all: see install), no share page's
//   live part, nothing from another site.
"use strict";

var CONFIG = self.TABLESTAKES;
var STATIC = "ts-static-" + CONFIG.version;
var PAGES = "ts-pages-" + CONFIG.version;
var CORE = "ts-core";
var CORE_URLS = (CONFIG.core || []).map(function (path) {
  return new URL(path, self.location.origin).href;
});
var KEPT_PAGES = /^\/(?:tables\/\d+\/|sessions\/\d+\/|games\/\d+\/)?$/;
var NETWORK_WAIT = 8000;  // ms before a kept page is shown instead of a slow one

self.addEventListener("install", function (event) {
  // what the fetch handler leaves alone (a POST: a hand sent, a preview, a report) goes to
  // the network without the browser handing it to this worker first (the static routing
  // API, Chromium 123+): a hand's Save does not wait on the worker, asleep or awake
  if (event.addRoutes) {
    event.waitUntil(Promise.resolve()
      .then(function () { return event.addRoutes({ condition: { requestMethod: "POST" }, source: "network" }); })
      .catch(function (error) { console.warn("Tablestakes: no static route for POST:", error); }));
  }
  event.waitUntil(
    caches.open(STATIC)
      .then(function (cache) { return cache.addAll(CONFIG.precache.concat([CONFIG.offline])); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf("ts-") === 0 && key !== STATIC && key !== PAGES && key !== CORE;
      }).map(function (key) { return caches.delete(key); }));
    }).then(pruneCore).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("message", function (event) {
  // the page logs out: forget the pages kept for this account
  if (event.data && event.data.type === "forget-pages") {
    event.waitUntil(caches.delete(PAGES));
  }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (CORE_URLS.indexOf(url.href) !== -1) {
    event.respondWith(coreFile(request));
  } else if (url.pathname.indexOf(CONFIG.static) === 0) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  }
});

function staticFile(request) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request).then(function (kept) {
      if (kept) return kept;
      return fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

function coreFile(request) {
  return caches.open(CORE).then(function (cache) {
    return cache.match(request.url).then(function (kept) {
      if (kept) return kept;
      // by URL alone (the worker's fetches differ in mode and credentials)
      return fetch(request.url, { credentials: "same-origin" }).then(function (response) {
        if (response.ok) cache.put(request.url, response.clone());
        return response;
      });
    });
  });
}

function pruneCore() {
  return caches.open(CORE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (request) {
        return CORE_URLS.indexOf(request.url) === -1;
      }).map(function (request) { return cache.delete(request); }));
    });
  });
}

function page(request, url) {
  var keep = KEPT_PAGES.test(url.pathname);
  var network = fetch(request).then(function (response) {
    if (keep && response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { cache.put(url.pathname, copy); });
    }
    return response;
  });
  var fallback = function () {
    return caches.open(PAGES)
      .then(function (cache) { return keep ? cache.match(url.pathname) : undefined; })
      .then(function (kept) {
        return kept || caches.open(STATIC).then(function (cache) {
          return cache.match(CONFIG.offline);
        });
      });
  };
  if (!keep) return network.catch(fallback);
  // a kept page: the network's answer, unless it fails or is very slow
  return new Promise(function (resolve) {
    var settled = false;
    var timer = setTimeout(function () {
      caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })
        .then(function (kept) { if (kept && !settled) { settled = true; resolve(kept); } });
    }, NETWORK_WAIT);
    network.then(function (response) {
      clearTimeout(timer);
      if (!settled) { settled = true; resolve(response); }
    }, function () {
      clearTimeout(timer);
      if (!settled) { settled = true; resolve(fallback()); }
    });
  });
}
