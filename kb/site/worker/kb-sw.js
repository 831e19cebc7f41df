/* The site's service worker (docs/site.md, "Installable and offline"), written by the build to the
 * site's root with this build's version in place of __KB_VERSION__, each language's offline pages (shown
 * offline for a page saved nowhere, and for an address of no page of a saved copy; kb/site/app.py:offline_page) in
 * place of __KB_PAGES__, and each language's games and pages outside their folders in place of __KB_SITE__.
 *
 * Caches are named "kb-<version>-…": "visited" holds every page and file the reader fetched, "shared"
 * what every saved game uses (the language's home, search data, styles, scripts, the calculators'
 * runtime once a game is saved with it: one copy, not one per game) and the site's root page, "game-<lang>-<game>~<stamp>"
 * a game's own pages saved for offline play (kb-offline.js asks for it). A save fills a new game
 * cache and, only once its last key ("kb-saved") is in, deletes the game's other copies: a save
 * that fails (no signal, an error) leaves the copy saved before as it was. A new build is a new
 * version: the games saved under an older one are saved again from the new build in the background
 * (on a page's "refresh" message, so whenever a page is opened), each old copy deleted once its new
 * one is complete, and the older versions' caches go once no saved game of theirs is left; until
 * then, offline, the old copies still answer. A save takes a file whose bytes did not change (kb-offline.json's
 * "hashes") from the copy already kept, so a new build fetches only what changed. Pages: network first, then the cache, then (a page
 * saved nowhere) the language's offline page. Files named by their content (the theme's hashed
 * names, the search data's ?v=) come from this version's caches first. Only GETs of this origin.
 */
"use strict";

var VERSION = "__KB_VERSION__";
var PAGES = __KB_PAGES__;
var SITE = __KB_SITE__;  /* per language: its games, and its pages outside their folders (paths from its root) */
var LANGS = Object.keys(PAGES);
var PREFIX = "kb-" + VERSION + "-";
var VISITED = PREFIX + "visited";
var SHARED = PREFIX + "shared";
var DONE = "kb-saved";  /* a game's cache holds this key once every file is in (its body: record()) */
var STABLE = /(\?|&)v=|\.[0-9a-f]{8}\.min\.(js|css)$/;
var GAME = /^kb-([^-]+)-game-([a-z]+)-([^~]+)(~.*)?$/;  /* version, language, game, this save's stamp */
var saving = {};  /* "<lang>/<game>": the save under way */
var tried = {};   /* "<lang>/<game>": when a background update of it last started */

function at(path) { return new URL(path, self.registration.scope).href; }

/* A file from the network, not the HTTP cache's copy, into ``cache``. */
function store(cache, url) {
  return fetch(url, { cache: "no-cache" }).then(function (r) {
    if (!r.ok) throw new Error(url + ": " + r.status);
    return cache.put(url, r);
  });
}

self.addEventListener("install", function (event) {
  self.skipWaiting();
  event.waitUntil(caches.open(SHARED).then(function (c) {
    return store(c, at("index.html"));  /* the root: it sends the reader to a language's home */
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

/* This version's caches first, then older ones (a saved game not yet saved again from this build). */
function cached(request, ownOnly) {
  return caches.keys().then(function (names) {
    var ours = names.filter(function (n) { return n.indexOf(PREFIX) === 0; });
    var older = ownOnly ? [] : names.filter(function (n) { return n.indexOf("kb-") === 0 && n.indexOf(PREFIX) !== 0; });
    return ours.concat(older).reduce(function (found, name) {
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

/* Whether a complete copy of ``game`` of ``lang`` is saved (any build's); of any game of ``lang`` when ``game`` is "". */
function saved(lang, game) {
  return caches.keys().then(function (names) {
    return names.filter(function (n) { var g = GAME.exec(n); return g && g[2] === lang && (!game || g[3] === game); })
      .reduce(function (found, n) { return found.then(function (ok) { return ok || complete(n); }); }, Promise.resolve(false));
  });
}

/* Whether ``parts`` (a URL's path from the scope, split at "/"), which no cache holds, is no page of the saved copy:
 * under a saved game's folder; or under the language's folder, outside every game's, no page of the site (the
 * build's list) while a game of the language is saved (its copy holds the language's home). */
function missing(lang, parts) {
  var site = SITE[lang] || { games: [], pages: [] };
  if (parts[0] !== lang) return Promise.resolve(false);
  if (parts.length > 2 && site.games.indexOf(parts[1]) >= 0) return saved(lang, parts[1]);
  var page = parts.slice(1).join("/").replace(/(^|\/)$/, "$1index.html");
  return site.pages.indexOf(page) >= 0 ? Promise.resolve(false) : saved(lang, "");
}

/* The offline page of the language the URL is under (the reader's, for a URL under none), as the page's answer: for a
 * page no saved copy holds that is no page at all ("missing"), "this page does not exist" (a wrong link: saving a
 * game again would not bring it), else "not saved". */
function fallback(request) {
  var parts = request.url.slice(self.registration.scope.length).split(/[?#]/)[0].split("/");
  var asked = String(self.navigator.language || "").slice(0, 2).toLowerCase();
  var lang = LANGS.indexOf(parts[0]) >= 0 ? parts[0] : LANGS.indexOf(asked) >= 0 ? asked : LANGS[0];
  return missing(lang, parts).then(function (none) {
    return new Response(PAGES[lang][none ? "missing" : "unsaved"],
                        { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function fromNetwork(request) {
  return fetch(request).then(function (r) { return keep(request, r); }, function () {
    return cached(request, false).then(function (hit) {
      return hit || (request.mode === "navigate" && LANGS.length ? fallback(request) : Response.error());
    });
  });
}

function fromCache(request) {
  return cached(request, true).then(function (hit) {
    return hit || fetch(request).then(function (r) { return keep(request, r); }, function () {
      return cached(request, false).then(function (old) { return old || Response.error(); });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(request.mode !== "navigate" && STABLE.test(request.url) ? fromCache(request) : fromNetwork(request));
});

/* Every open page hears how a save goes (the page that asked, and any other of the same game). */
function tell(msg) {
  self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (all) {
    all.forEach(function (c) { c.postMessage(msg); });
  });
}

function copies(lang, game) {
  return caches.keys().then(function (names) {
    return names.filter(function (n) { var g = GAME.exec(n); return g && g[2] === lang && g[3] === game; });
  });
}

function complete(name) {
  return held(name).then(function (r) { return !!r; });
}

/* The "done" key's body of the game cache ``name`` (record()), {} when unreadable; null: the copy is not complete. */
function held(name) {
  return caches.open(name).then(function (c) { return c.match(at(GAME.exec(name)[2] + "/" + DONE)); })
    .then(function (r) {
      return r ? r.json().then(function (d) { return d || {}; }, function () { return {}; }) : null;
    });
}

/* A copy of ``url`` already in one of the site's caches (``names``: an older build's, the pages read) whose bytes are
 * ``hash`` (the build's, kb-offline.json "hashes": the first digits of their SHA-256 in hex), or null: a new build's
 * save fetches only the files whose bytes changed (not the 9 MB runtime again). */
function kept(names, url, hash) {
  if (!hash || !self.crypto || !self.crypto.subtle) return Promise.resolve(null);
  return names.reduce(function (found, name) {
    return found.then(function (hit) {
      return hit || caches.open(name).then(function (c) { return c.match(url); }).then(function (r) {
        if (!r || !r.ok) return null;
        return r.clone().arrayBuffer().then(function (b) { return self.crypto.subtle.digest("SHA-256", b); }).then(function (d) {
          var hex = Array.prototype.map.call(new Uint8Array(d), function (x) { return (x < 16 ? "0" : "") + x.toString(16); });
          return hex.join("").slice(0, hash.length) === hash ? r : null;
        });
      });
    });
  }, Promise.resolve(null));
}

/* The "done" key's body: this build's version, the hashes of the files the copy holds (``files``: the game's
 * list), against which kb-offline.js counts what an update of the copy would fetch, and whether it was saved with the
 * calculators' runtime (``runtime``: an update saves it with it again). */
function record(files, hashes, runtime) {
  var kept = {};
  files.forEach(function (f) { if (hashes[f[0]]) kept[f[0]] = hashes[f[0]]; });
  return new Response(JSON.stringify({ version: VERSION, hashes: kept, runtime: runtime }),
                      { headers: { "Content-Type": "application/json" } });
}

/* The files a save of ``game`` stores (kb-offline.json ``data``): its own list, and the calculators' runtime when
 * ``runtime`` is asked and the game has a calculator that needs it. */
function listed(data, game, runtime) {
  var entry = data.games[game];
  if (!entry) return null;
  return runtime && entry.runtime && data.runtime ? entry.files.concat(data.runtime.files) : entry.files;
}

/* Save one game of one language: its own files (under "<game>/") into a new cache, the others into the shared one
 * unless already there, each from a copy with the same bytes when one is kept, else from the network; then the
 * "done" key; only then the game's other copies (older saves, older builds) go. ``runtime``: the calculators' runtime
 * too (the page's "+ full calculators"; the 9 MB a game saved without it does not fetch). */
function save(lang, game, runtime) {
  var key = lang + "/" + game;
  if (saving[key]) return saving[key];
  var index = at(lang + "/kb-offline.json");
  var name = PREFIX + "game-" + lang + "-" + game + "~" + Date.now().toString(36);
  var bytes = 0;
  var run = fetch(index, { cache: "no-store" }).then(function (r) {
    if (!r.ok) throw new Error(index + ": " + r.status);
    return r.json();
  }).then(function (data) {
    if (data.version !== VERSION) throw new Error("not this build's list: " + index);
    var files = listed(data, game, runtime);
    if (!files) {  /* the game is no longer in the site: its copies go */
      return copies(lang, game).then(function (names) { return Promise.all(names.map(function (n) { return caches.delete(n); })); })
        .then(function () { throw new Error("not in this build: " + key); });
    }
    return Promise.all([caches.open(name), caches.open(SHARED), caches.keys()]).then(function (open) {
      var own = open[0], shared = open[1], done = 0, hashes = data.hashes || {};
      var names = open[2].filter(function (n) { return n.indexOf("kb-") === 0 && n !== name; });
      function one(i) {
        if (i >= files.length) return Promise.resolve();
        var url = new URL(files[i][0], index).href, mine = files[i][0].indexOf(game + "/") === 0, into = mine ? own : shared;
        return (mine ? Promise.resolve(null) : shared.match(url)).then(function (hit) {
          if (hit) return null;
          return kept(names, url, hashes[files[i][0]]).then(function (copy) {
            return copy ? into.put(url, copy) : store(into, url).then(function () { bytes += files[i][1]; });
          });
        }).then(function () {
          done += 1;
          tell({ kb: "progress", lang: lang, game: game, done: done, of: files.length, bytes: bytes });
          return one(i + 1);
        });
      }
      /* the runtime listed: the list is not the game's own (listed()) */
      return one(0).then(function () { return own.put(at(lang + "/" + DONE), record(files, hashes, files !== data.games[game].files)); });
    });
  }).then(function () {
    return copies(lang, game).then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== name; }).map(function (n) { return caches.delete(n); }));
    });
  }).then(function () {
    delete saving[key];
    tell({ kb: "saved", lang: lang, game: game });
    return tidy();
  }, function (e) {
    delete saving[key];
    /* fetch() rejects with a TypeError when the network fails; an HTTP error or a wrong list is an Error */
    tell({ kb: "failed", lang: lang, game: game, network: e instanceof TypeError, error: String(e) });
    return caches.delete(name).then(function () { throw e; });
  });
  saving[key] = run;
  return run;
}

/* Unfinished saves not under way go; once no game saved under another version is left, its other caches go too. */
function tidy() {
  return caches.keys().then(function (names) {
    var games = names.filter(function (n) { return GAME.test(n); });
    return Promise.all(games.map(function (n) {
      var g = GAME.exec(n);
      if (saving[g[2] + "/" + g[3]]) return n;
      return complete(n).then(function (ok) { return ok ? n : caches.delete(n).then(function () { return null; }); });
    })).then(function (kept) {
      var older = kept.some(function (n) { return n && n.indexOf(PREFIX) !== 0; });
      if (older) return null;
      return Promise.all(names.filter(function (n) { return n.indexOf("kb-") === 0 && n.indexOf(PREFIX) !== 0 && !GAME.test(n); })
        .map(function (n) { return caches.delete(n); }));
    });
  });
}

/* The games saved under an older build, saved again from this one, one at a time, when online, with the runtime when
 * their copy holds it; a game whose update failed for another reason than the network in the last minute waits (a
 * failing server does not start it again at every page). */
function refresh() {
  if (self.navigator.onLine === false) return tidy();
  return caches.keys().then(function (names) {
    var todo = [], whole = {};
    return Promise.all(names.map(function (n) {
      var g = GAME.exec(n);
      if (!g || g[1] === VERSION) return null;
      return held(n).then(function (r) {
        var key = g[2] + "/" + g[3];
        if (r && todo.indexOf(key) < 0) todo.push(key);
        if (r && r.runtime !== false) whole[key] = true;  /* a record from before the choice: it held the runtime */
      });
    })).then(function () {
      return todo.reduce(function (chain, key) {
        return chain.then(function () {
          if (Date.now() - (tried[key] || 0) < 60000) return null;
          tried[key] = Date.now();
          var g = key.split("/");
          return save(g[0], g[1], !!whole[key]).catch(function (e) { if (e instanceof TypeError) delete tried[key]; });
        });
      }, Promise.resolve());
    });
  }).then(tidy);
}

self.addEventListener("message", function (event) {
  var m = event.data || {};
  if (m.kb === "save" && typeof m.lang === "string" && typeof m.game === "string") {
    event.waitUntil(save(m.lang, m.game, m.runtime === true).catch(function () {}));
  } else if (m.kb === "refresh") {
    event.waitUntil(refresh().catch(function () {}));
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
