/* The installable site (docs/site.md, "Installable and offline"): registers the service worker
 * (kb-sw.js at the site's root, over http(s) only: pages opened from file:// stay as they are),
 * asks it to keep the page just read and its files, and on a game's page offers a button,
 * data-kb-offline="<game>", that saves the game's pages, search data and tooltips in this language
 * (sizes from kb-offline.json). The button reports data-kb-offline-state: "saving", "saved" or "failed".
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
    });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });

  var path = here().split("?")[0];
  var m = path.indexOf(home.href) === 0 && /^([^/]+)\/(index\.html)?$/.exec(path.slice(home.href.length));
  if (!m) return drop();
  var game = m[1];

  /* "1,2 MB" / "1.2 MB": one decimal, the language's decimal mark from the build (Babel's CLDR data); no
   * Intl.NumberFormat, whose first use loads the locale's data: 70-110 ms at 4x CPU on every game page (issue 29). */
  function size(bytes, mark) {
    var mb = bytes / 1e6, unit = mb >= 1 ? " MB" : " KB", n = mb >= 1 ? mb : bytes / 1e3;
    return n.toFixed(1).replace(".", mark || ".") + unit;
  }

  function offer(data) {
    var entry = data.games[game];
    var article = document.querySelector("article");
    if (!entry || !article) return drop();
    var words = data.labels, cacheName = "kb-" + data.version + "-game-" + data.lang + "-" + game;
    var box = slot || document.createElement("p");
    box.className = "kb-offline";
    box.textContent = "";  /* the place's stand-ins, replaced in this same task: no frame shows it empty */
    var button = document.createElement("button");
    button.type = "button";
    button.className = "md-button kb-offline__button";
    button.setAttribute("data-kb-offline", game);
    var status = document.createElement("span");
    status.className = "kb-offline__status";
    status.setAttribute("role", "status");
    var bar = document.createElement("progress");
    bar.className = "kb-offline__progress";
    bar.max = entry.files.length;
    bar.value = 0;
    bar.hidden = true;
    box.appendChild(button);
    box.appendChild(bar);
    box.appendChild(status);
    var h1 = article.querySelector("h1");
    if (!slot) article.insertBefore(box, h1 && h1.parentNode === article ? h1.nextSibling : article.firstChild);

    function show(state, text) {
      if (state) button.setAttribute("data-kb-offline-state", state);
      else button.removeAttribute("data-kb-offline-state");
      button.disabled = state === "saving";
      bar.hidden = state !== "saving";
      status.textContent = text || "";
    }

    button.textContent = words.offline_save + " (" + size(entry.bytes, data.decimal) + ")";
    caches.has(cacheName).then(function (has) {
      return has && caches.open(cacheName).then(function (c) { return c.match(new URL("kb-saved", home).href); });
    }).then(function (saved) { if (saved) show("saved", words.offline_saved); });

    sw.addEventListener("message", function (ev) {
      var msg = ev.data || {};
      if (msg.game !== game || msg.lang !== data.lang) return;
      if (msg.kb === "progress") {
        bar.value = msg.done;
        show("saving", words.offline_saving + " " + Math.round(100 * msg.done / msg.of) + " % · " +
             size(msg.bytes, data.decimal) + " / " + size(entry.bytes, data.decimal));
      } else if (msg.kb === "saved") {
        show("saved", words.offline_saved);
      } else if (msg.kb === "failed") {
        show("failed", words.offline_failed);
      }
    });

    button.addEventListener("click", function () {
      show("saving", words.offline_saving);
      sw.ready.then(function (reg) {
        reg.active.postMessage({ kb: "save", lang: data.lang, game: game });
      });
    });
  }

  fetch(new URL("kb-offline.json", home).href, { cache: "no-cache" })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (data) { if (data && data.games) offer(data); else drop(); }, drop);
})();
