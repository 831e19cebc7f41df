/* The installable site (docs/site.md, "Installable and offline"): registers the service worker
 * (kb-sw.js at the site's root, over http(s) only: pages opened from file:// stay as they are),
 * asks it to keep the page just read and its files and to bring saved games up to this build, and on a
 * game's page offers a button, data-kb-offline="<game>", that saves the game's pages, search data and
 * tooltips in this language (its words and sizes from the page's <meta name="kb-offline">, written in by the build;
 * once anything is stored, from kb-offline.json, counting only what is not stored yet: for an update, only the files
 * whose hash differs from the one the stored copy was saved with). The
 * button reports data-kb-offline-state: "saving", "saved" (this build's copy is stored: the button says
 * so and does nothing), "update" (a copy of an older build is stored: pressing brings it up to date) or
 * "failed". While saving it is aria-disabled, not disabled, so the keyboard's focus stays on it. A game with a
 * calculator the page's Python answers has a second button, data-kb-offline-full="<game>", "+ full calculators
 * (9 MB)": the game saved with the calculators' runtime (kb-offline.json "runtime"), which the first one leaves out
 * unless a stored copy holds it already; it goes once the runtime is stored.
 * Its words come from the build's data and go in through textContent. */
(function () {
  "use strict";

  /* A game's page has the box's place in its HTML, the same button hidden (filling it moves nothing); with no
   * button to offer, it goes. */
  var slot = document.querySelector("article p.kb-offline--place");
  function drop() { if (slot && slot.parentNode) slot.parentNode.removeChild(slot); }

  var link = document.querySelector('link[rel="manifest"]');
  if (!link || !("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol) || !window.caches) return drop();
  var home = new URL(".", link.href);        /* this language's root */
  var site = new URL("../", home);           /* the site's root: the worker's scope */
  var sw = navigator.serviceWorker;

  function here() { return location.href.split("#")[0]; }

  /* The worker once the page has loaded: its start and its copies of the page's files stay off the first load. Then
   * it keeps this page and what it loaded (the first page of a visit is read before the worker runs). */
  function register() {
    sw.register(new URL("kb-sw.js", site).href).catch(function (e) {
      if (window.console) console.warn("kb-offline:", e);
    });
    sw.ready.then(function (reg) {
      var urls = [here()];
      (performance.getEntriesByType ? performance.getEntriesByType("resource") : []).forEach(function (r) {
        if (r.name.indexOf(site.origin) === 0) urls.push(r.name);
      });
      if (reg.active) reg.active.postMessage({ kb: "keep", urls: urls });
      refresh();
    });
    /* a new build's worker has just taken the page: it saves again the games saved under the old one */
    sw.addEventListener("controllerchange", refresh);
  }
  function refresh() {
    if (sw.controller) sw.controller.postMessage({ kb: "refresh" });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });

  /* Offline, a link to a page that would not open (in none of the site's caches, saved or visited: the worker would
   * answer its offline page; the same look-up as kb-sw.js's, the query ignored) carries a mark, a short label in
   * the page's language and a title that says why (not_saved, not_saved_title: the search box's words, from its
   * meta), and data-kb-saved="no" ("yes" on a link whose page is there). Online, no mark and no attribute. Offline:
   * navigator.onLine is false, or a HEAD request to this language's home (the worker lets it by to the network)
   * fails or takes over 3 s, asked at most every 10 s. kb-search.js hands its results to window.kbOffline.mark; the
   * language switcher's links are marked here, at load when the browser knows it is offline, and when the reader
   * reaches for the switcher; both again when the connection goes or comes back. */
  var words = (function () {
    var meta = document.querySelector('meta[name="kb-search"]');
    try { return JSON.parse(meta.getAttribute("content")).labels || {}; } catch (e) { return {}; }
  })();
  var languages = document.querySelectorAll("a.md-select__link[hreflang]"), select = document.querySelector(".md-select");
  var probe = null, probed = 0, watched = Array.prototype.slice.call(languages);
  function offline() {
    if (navigator.onLine === false) return Promise.resolve(true);
    if (probe && Date.now() - probed < 10000) return probe;
    probed = Date.now();
    probe = new Promise(function (answer) {
      setTimeout(function () { answer(true); }, 3000);
      fetch(new URL("index.html", home).href, { method: "HEAD", cache: "no-store" })
        .then(function () { answer(false); }, function () { answer(true); });
    });
    return probe;
  }
  function marked(a, saved) {  /* saved: true, false, or null (online) */
    var old = a.querySelector(".kb-unsaved"), was = a.getAttribute("data-kb-saved") === "no";
    if (saved === null) a.removeAttribute("data-kb-saved");
    else a.setAttribute("data-kb-saved", saved ? "yes" : "no");
    if (saved === false && !old) {
      var tag = document.createElement("span");
      tag.className = "kb-unsaved";
      tag.textContent = words.not_saved || "not saved";
      (a.firstElementChild || a).appendChild(tag);  /* a result: in its title's line */
      a.title = words.not_saved_title || "";
    } else if (saved !== false && old) {
      old.parentNode.removeChild(old);
      if (was) a.removeAttribute("title");
    }
  }
  function mark(links) {
    var list = Array.prototype.slice.call(links);
    watched = watched.filter(function (a) { return document.contains(a) && list.indexOf(a) < 0; }).concat(list);
    return offline().then(function (off) {
      return Promise.all(list.map(function (a) {
        if (!off) return marked(a, null);
        return caches.match(a.href, { ignoreSearch: true }).then(function (hit) { marked(a, !!hit); });
      }));
    });
  }
  window.kbOffline = { mark: mark };
  if (navigator.onLine === false) mark(languages);
  if (select) ["focusin", "pointerenter", "touchstart"].forEach(function (type) {
    select.addEventListener(type, function () { mark(languages); }, { passive: true });
  });
  ["online", "offline"].forEach(function (type) {
    window.addEventListener(type, function () { probe = null; mark(watched.filter(function (a) { return document.contains(a); })); });
  });

  /* The game's page gives the buttons' words, the decimal mark and the sizes, the game's and its runtime's (0: none
   * offered) (kb.site.app.offline_meta: the build writes the sizes in); the list of files, kb-offline.json (86 KB on
   * the bundled site), is fetched only once something is stored that a save would not fetch again (audit-phone3 D8:
   * it was fetched on every game's page). */
  var given = (function () {
    var meta = document.querySelector('meta[name="kb-offline"]');
    try {
      var data = JSON.parse(meta.getAttribute("content"));
      data.bytes = parseInt(meta.getAttribute("data-kb-bytes"), 10);
      data.runtime = parseInt(meta.getAttribute("data-kb-runtime"), 10) || 0;
      return data.bytes > 0 && data.labels ? data : null;  /* 0: no size written in (a build without kb build) */
    } catch (e) { return null; }
  })();
  var path = here().split("?")[0];
  var m = path.indexOf(home.href) === 0 && /^([^/]+)\/(index\.html)?$/.exec(path.slice(home.href.length));
  if (!m || !given) return drop();
  var game = m[1];

  /* "1,2 MB" / "1.2 MB": one decimal, the language's decimal mark from the build (Babel's CLDR data), a no-break
   * space before the unit (a narrow button wrapped "(20.5 / KB)"); no Intl.NumberFormat, whose first use loads the
   * locale's data: 70-110 ms at 4x CPU on every game page (issue 29). */
  function size(bytes, mark) {
    var mb = bytes / 1e6, unit = mb >= 1 ? "\u00a0MB" : "\u00a0KB", n = mb >= 1 ? mb : bytes / 1e3;
    return n.toFixed(1).replace(".", mark || ".") + unit;
  }

  function offer() {
    var article = document.querySelector("article");
    if (!article) return drop();
    var words = given.labels, mark = given.decimal, done = new URL("kb-saved", home).href;
    function make(extra) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "md-button kb-offline__button";
      b.setAttribute(extra ? "data-kb-offline-full" : "data-kb-offline", game);
      return b;
    }
    var button = make(false);
    /* "+ full calculators": the game saved with the calculators' runtime, offered only to a game that has a
     * calculator needing it (the page's runtime size) */
    var full = given.runtime > 0 ? make(true) : null;
    /* What a screen reader hears, the status (the start, each quarter, the end: accessibility audit M6, a step of
     * every file flooded it), is kept out of sight; what is shown, to the step, is kept out of its hearing. */
    var status = document.createElement("span");
    status.className = "kb-offline__status kb-sr";
    status.setAttribute("role", "status");
    var shown = document.createElement("span");
    shown.className = "kb-offline__shown";
    shown.setAttribute("aria-hidden", "true");
    var bar = document.createElement("progress");
    bar.className = "kb-offline__progress";
    bar.setAttribute("aria-label", words.offline_saving || "");
    bar.value = 0;
    bar.hidden = true;
    /* what "+ full calculators" is for, in sight under it (a title reaches neither a touch nor the keyboard: L9) */
    var note = full ? document.createElement("span") : null;
    if (note) {
      note.id = "kb-offline-note-" + game;
      note.className = "kb-offline__note";
      note.textContent = words.offline_full_title || "";
      full.setAttribute("aria-describedby", note.id);
    }
    /* The box takes the place's stand-ins once the buttons' first state is known (what is stored: at once when
     * nothing is, else once the list is read), so that a saved game's page never offers to save it first. */
    var box = null;
    function place() {
      if (box) return;
      box = slot || document.createElement("p");
      box.className = "kb-offline";
      box.textContent = "";  /* the place's stand-ins, replaced in this same task: no frame shows it empty */
      [button, full, note, bar, shown, status].forEach(function (el) { if (el) box.appendChild(el); });
      var h1 = article.querySelector("h1");
      if (!slot) article.insertBefore(box, h1 && h1.parentNode === article ? h1.nextSibling : article.firstChild);
    }

    /* need: what saving the game fetches; extra: what its runtime adds (0: stored already); older: a copy of an older
     * build is stored; kept: a stored copy holds the runtime (an update saves it again with it); total: this save's */
    var state = "", need = given.bytes, extra = given.runtime, older = false, kept = false, total = 0;
    function sum(files, counted) {
      return files.reduce(function (n, f) { return n + (counted(f) ? f[1] : 0); }, 0);
    }
    /* whether the game's own button saves the runtime too: kept by its stored copy, or nothing left to fetch of it */
    function whole() { return full !== null && (kept || extra === 0); }
    function label() {
      if (state === "saving") return;
      var mb = " (" + size(need + (whole() ? extra : 0), mark) + ")";
      button.textContent = state === "saved" ? words.offline_saved_button
        : older ? words.offline_saved_button + " · " + words.offline_update + mb
        : words.offline_save + mb;
      if (!full) return;
      if (whole() && document.activeElement === full) button.focus();  /* the runtime saved: the focus stays in the box */
      full.hidden = note.hidden = whole();
      full.textContent = words.offline_full + " (" + size(extra, mark) + ")";
    }
    /* ``said``: what the status says, when not ``text`` (a step of the save: unchanged between quarters) */
    function show(next, text, said) {
      place();
      state = next;
      if (state) button.setAttribute("data-kb-offline-state", state);
      else button.removeAttribute("data-kb-offline-state");
      [button, full].forEach(function (b) {
        if (b && (state === "saving" || (state === "saved" && b === button))) b.setAttribute("aria-disabled", "true");
        else if (b) b.removeAttribute("aria-disabled");
      });
      bar.hidden = state !== "saving";
      shown.textContent = text || "";
      said = said === undefined ? text || "" : said;
      if (status.textContent !== said) status.textContent = said;
      label();
    }

    /* The game's stored copies, of this build and older ones; what saving it would fetch (the files not already
     * in this build's shared cache, kb-sw.js); then the button's state and words. */
    function saved(names) {
      return names.reduce(function (found, name) {
        return found.then(function (yes) {
          return yes || caches.open(name).then(function (c) { return c.match(done); }).then(function (r) { return !!r; });
        });
      }, Promise.resolve(false));
    }
    /* The record of each complete stored copy of the game (its "kb-saved" key, kb-sw.js): the file hashes it was saved
     * with ({} for a copy whose record has none) and whether it holds the runtime. */
    function records(names) {
      return Promise.all(names.map(function (name) {
        return caches.open(name).then(function (c) { return c.match(done); }).then(function (r) {
          return r ? r.text().then(function (t) {
            try { return JSON.parse(t) || {}; } catch (e) { return {}; }
          }) : null;
        });
      })).then(function (all) { return all.filter(function (h) { return h !== null; }); });
    }
    /* Whether saving fetches the listed file ``f``: not when it is outside the game's folder and already in this
     * build's shared cache (``have``: its URLs), nor when a stored copy of the game holds the same bytes (its
     * record's hash is this build's; ``hashes``: the records' hashes), which the worker takes instead. */
    function fetched(data, f, have, hashes) {
      var hash = data.hashes && data.hashes[f[0]];
      if (f[0].indexOf(game + "/") !== 0 && have[new URL(f[0], home).href]) return false;
      return !(hash && hashes.some(function (h) { return h[f[0]] === hash; }));
    }
    /* Whether a cache named as ``re`` matches holds a URL that ``test`` takes (any of ``names``, in turn). */
    function holds(names, re, test) {
      return names.filter(function (n) { return re.test(n); }).reduce(function (found, name) {
        return found.then(function (yes) {
          return yes || caches.open(name).then(function (c) { return c.keys(); }).then(function (keys) {
            return keys.some(function (r) { return test(r.url); });
          });
        });
      }, Promise.resolve(false));
    }
    /* Whether anything is stored that a save would not fetch again: a copy of the game; in a shared cache another file
     * than the site's root page (the worker keeps it from its install; no list names it); a file of the calculators'
     * runtime the pages read (a game that offers it: kb-py/, in a cache of visited files). Nothing: every listed file
     * is fetched, the page's sizes are the whole answer and the list is not needed. */
    function stored(names, ours) {
      if (ours.length) return Promise.resolve(true);
      var root = new URL("index.html", site).href;
      return holds(names, /^kb-[^-]+-shared$/, function (u) { return u !== root; }).then(function (yes) {
        return yes || (full !== null && holds(names, /^kb-[^-]+-visited$/, function (u) {
          return u.indexOf(site.href) === 0 && /(^|\/)kb-py\//.test(u.slice(site.href.length));
        }));
      });
    }
    var listed = null;
    function list() {  /* kb-offline.json, fetched once (again after a failure); null when it cannot be read */
      listed = listed || fetch(new URL("kb-offline.json", home).href, { cache: "no-cache" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { return data && data.games && data.games[game] ? data : null; }, function () { return null; })
        .then(function (data) { if (!data) listed = null; return data; });
      return listed;
    }
    function urls(name) {  /* the URLs a cache holds, as a set ({} when there is no such cache) */
      return caches.has(name).then(function (has) {
        return has ? caches.open(name).then(function (c) { return c.keys(); }) : [];
      }).then(function (keys) {
        var out = {};
        keys.forEach(function (r) { out[r.url] = true; });
        return out;
      });
    }
    /* With the list: saved by this build, an update (a copy of an older build), or what a save would fetch. A runtime
     * file the pages read under this build (its cache of visited files) is not fetched again: the worker takes it. */
    function count(data, ours, failed) {
      var own = "kb-" + data.version + "-", entry = data.games[game];
      var runtime = entry.runtime && data.runtime ? data.runtime.files : [];
      var now = ours.filter(function (n) { return n.indexOf(own) === 0; });
      return Promise.all([records(ours), urls(own + "shared"), saved(now), urls(own + "visited")]).then(function (got) {
        var have = got[1], read = got[3], hashes = got[0].map(function (r) { return r.hashes || {}; });
        var counted = function (f) { return fetched(data, f, have, hashes); };
        need = sum(entry.files, counted);
        extra = sum(runtime, function (f) { return !read[new URL(f[0], home).href] && counted(f); });
        kept = got[0].some(function (r) { return r.runtime !== false; });  /* none said: saved before the choice, with it */
        older = !got[2] && got[0].length > 0;
        if (got[2]) return show("saved", words.offline_saved);
        show(failed ? "failed" : older ? "update" : "", failed || "");
      });
    }
    function check(failed) {
      var mine = new RegExp("^kb-[^-]+-game-" + given.lang + "-" + game.replace(/[^a-z0-9]/g, "\\$&") + "(~.*)?$");
      return caches.keys().then(function (names) {
        var ours = names.filter(function (n) { return mine.test(n); });
        return stored(names, ours).then(function (yes) {
          if (!yes) {
            need = given.bytes;
            extra = given.runtime;
            older = kept = false;
            return show(failed ? "failed" : "", failed || "");
          }
          return list().then(function (data) {
            if (data) return count(data, ours, failed);
            if (box) show(failed ? "failed" : "", failed || "");  /* the list unread now: the page's sizes, an upper bound */
            else drop();  /* unread from the start (offline, not kept): saved or not cannot be told, so no button */
          });
        });
      });
    }

    check(null);

    /* How far the save is, by bytes: the worker takes the listed files in the list's order (the game's, then the
     * runtime's when saved with it: msg.of says which), so the sizes of the first msg.done of them are what it has done,
     * of the sum of them all; by files while the list is not read. Then what it fetched of what it was to fetch. */
    function progress(msg, data) {
      var files = data ? data.games[game].files.concat(data.runtime ? data.runtime.files : []).slice(0, msg.of) : [];
      var all = files.length === msg.of ? sum(files, Boolean) : 0;
      bar.max = all > 0 ? all : msg.of;
      bar.value = all > 0 ? sum(files.slice(0, msg.done), Boolean) : msg.done;
      var pct = Math.round(100 * bar.value / bar.max), quarter = Math.min(75, 25 * Math.floor(pct / 25));
      show("saving", words.offline_saving + " " + pct + " % · " + size(msg.bytes, mark) + " / " + size(total || need, mark),
           words.offline_saving + (quarter ? " " + quarter + " %" : ""));
    }

    var ended = 0;  /* saves ended ("saved", "failed") */
    sw.addEventListener("message", function (ev) {
      var msg = ev.data || {};
      if (msg.game !== game || msg.lang !== given.lang) return;
      if (msg.kb === "progress") {
        var at = ended;  /* a step told before the save's end is not shown after it */
        list().then(function (data) { if (at === ended) progress(msg, data); });
        return;
      }
      ended += 1;
      if (msg.kb === "saved") {
        check(null);
      } else if (msg.kb === "failed") {
        check(msg.network || !navigator.onLine ? words.offline_no_connection : words.offline_failed);
      }
    });

    /* The game's button saves it as its stored copy is (with the runtime when that holds it); "+ full calculators"
     * saves it with the runtime (a game saved without it: only the runtime is fetched, its pages copied). */
    function press(b, withRuntime) {
      b.addEventListener("click", function () {
        if (b.getAttribute("aria-disabled") === "true") return;
        total = need + (withRuntime() ? extra : 0);
        list();  /* its sizes give the save's progress by bytes */
        show("saving", words.offline_saving);
        sw.ready.then(function (reg) {
          reg.active.postMessage({ kb: "save", lang: given.lang, game: game, runtime: withRuntime() });
        });
      });
    }
    press(button, whole);
    if (full) press(full, function () { return true; });
  }

  offer();
})();
