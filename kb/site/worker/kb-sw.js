/* The site's service worker (docs/site.md, "Installable and offline"), written by the build to the
 * site's root with this build's version in place of __KB_VERSION__.
 *
 * Caches are named "kb-<version>-…": "visited" holds every page and file the reader fetched,
 * "game-<lang>-<game>" a game saved for offline play (kb-offline.js asks for it). A new build is
 * a new version: on activation every cache of another version is dropped and the games saved
 * under it are saved again from the new build, so no page of one build mixes with another's.
 * Pages: network first, the cache when offline. Files named by their content (the theme's hashed
 * names, the search data's ?v=) come from the cache first. Only GETs of this origin are touched.
 */
"use strict";

var VERSION = "__KB_VERSION__";
var PREFIX = "kb-" + VERSION + "-";
var VISITED = PREFIX + "visited";
var DONE = "kb-saved";  /* a game's cache holds this key once every file is in */
var STABLE = /(\?|&)v=|\.[0-9a-f]{8}\.min\.(js|css)$/;

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    var again = [];
    return Promise.all(names.map(function (name) {
      if (name.indexOf("kb-") !== 0 || name.indexOf(PREFIX) === 0) return null;
      var saved = /^kb-[^-]+-game-([a-z]+)-(.+)$/.exec(name);
      if (saved) again.push([saved[1], saved[2]]);
      return caches.delete(name);
    })).then(function () { return self.clients.claim(); }).then(function () {
      return Promise.all(again.map(function (g) { return save(g[0], g[1], null).catch(function () {}); }));
    });
  }));
});

function mine() {
  return caches.keys().then(function (names) {
    return names.filter(function (n) { return n.indexOf(PREFIX) === 0; });
  });
}

function cached(request) {
  return mine().then(function (names) {
    return names.reduce(function (found, name) {
      return found.then(function (hit) {
        return hit || caches.open(name).then(function (c) { return c.match(request, { ignoreSearch: true }); });
      });
    }, Promise.resolve(null));
  });
}

function keep(request, response) {
  if (response && response.ok && response.type === "basic") {
    var copy = response.clone();
    caches.open(VISITED).then(function (c) { return c.put(request, copy); });
  }
  return response;
}

function fromNetwork(request) {
  return fetch(request).then(function (r) { return keep(request, r); }, function () {
    return cached(request).then(function (hit) { return hit || Response.error(); });
  });
}

function fromCache(request) {
  return cached(request).then(function (hit) {
    return hit || fetch(request).then(function (r) { return keep(request, r); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(request.mode !== "navigate" && STABLE.test(request.url) ? fromCache(request) : fromNetwork(request));
});

/* Save one game of one language: the files kb-offline-<lang>.json lists for it, then the "done" key. */
function save(lang, game, client) {
  var index = new URL(lang + "/kb-offline.json", self.registration.scope).href;
  var name = PREFIX + "game-" + lang + "-" + game;
  function tell(msg) { if (client) client.postMessage(msg); }
  return fetch(index, { cache: "no-store" }).then(function (r) {
    if (!r.ok) throw new Error(index + ": " + r.status);
    return r.json();
  }).then(function (data) {
    var files = data.games[game] && data.games[game].files;
    if (data.version !== VERSION || !files) throw new Error("not in this build: " + lang + "/" + game);
    return caches.delete(name).then(function () { return caches.open(name); }).then(function (cache) {
      var done = 0, bytes = 0;
      function one(i) {
        if (i >= files.length) return Promise.resolve();
        var url = new URL(files[i][0], index).href;
        return fetch(url, { cache: "no-cache" }).then(function (r) {
          if (!r.ok) throw new Error(url + ": " + r.status);
          return cache.put(url, r);
        }).then(function () {
          done += 1; bytes += files[i][1];
          tell({ kb: "progress", lang: lang, game: game, done: done, of: files.length, bytes: bytes });
          return one(i + 1);
        });
      }
      return one(0).then(function () {
        return cache.put(new URL(DONE, index).href, new Response(VERSION));
      });
    });
  }).then(function () {
    tell({ kb: "saved", lang: lang, game: game });
  }, function (e) {
    tell({ kb: "failed", lang: lang, game: game, error: String(e) });
    return caches.delete(name).then(function () { throw e; });
  });
}

self.addEventListener("message", function (event) {
  var m = event.data || {};
  if (m.kb === "save" && typeof m.lang === "string" && typeof m.game === "string") {
    event.waitUntil(save(m.lang, m.game, event.source).catch(function () {}));
  } else if (m.kb === "keep" && Array.isArray(m.urls)) {
    event.waitUntil(caches.open(VISITED).then(function (c) {
      return Promise.all(m.urls.map(function (u) {
        var url = new URL(u, self.location.href);
        if (url.origin !== self.location.origin) return null;
        return c.match(url.href, { ignoreSearch: true }).then(function (hit) {
          /* the browser has just loaded these: its HTTP cache answers, the network is not asked again */
          return hit || fetch(url.href, { cache: "force-cache" }).then(function (r) { if (r.ok) return c.put(url.href, r); }, function () {});
        });
      }));
    }));
  }
});
