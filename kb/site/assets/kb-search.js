/* The search dialog of every page: the engine's search (kb-search-engine.js) on this language's data.
 *
 * The page names its data's head in <meta name="kb-search" content='{"lang","root","data","version"}'>.
 * The head and its parts (kb/site/search_box.py) are scripts (so pages opened from file:// can load
 * them) that call window.kbSearchData(lang, text[, part]); a query loads only the parts its words
 * need (the engine names them in engine.missing; the query runs again once they are in). Each text is
 * kept in sessionStorage under the version, so the other pages of a visit parse it again instead of
 * loading it. The head is loaded when search is first opened (or its button hovered, focused or
 * touched), never with the page. Opened by the header button, "/" and "s" (pressed before this script came, they
 * are replayed: replay()); Esc closes; arrows move through the results; Enter opens the selected one (the first by
 * default).
 * Offline, a result whose page is not saved carries a mark (kb-offline.js's window.kbOffline.mark; the order stays).
 * A screen reader is told, once the typing has settled, how many results there are (tell()); the keys' line shows on a
 * touch screen too once a keyboard's key is pressed (keyboard()); a result opened lands the focus on its passage, and
 * Back from it gives the focus to the search button with the query kept (landed(), back()).
 * Nothing from the data becomes markup: every string goes in through textContent.
 */
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="kb-search"]');
  if (!meta || !window.kbSearchEngine) return;
  var config;
  try { config = JSON.parse(meta.getAttribute("content")); } catch (e) { return; }

  /* «Todos los juegos por igual» / "Every game alike" holds from page to page, in both languages (phone audit 3, D1):
   * kept as the light/dark choice is (kb-palette.js), by the theme's __md_get/__md_set under its storage scope, the
   * site's root on every language's pages (kb.mkdocs_plugin._site_scope). Unticked until the reader ticks it. */
  var WIDE = "kb-search-wide";
  function keptWide() {
    try { return !!(window.__md_get && window.__md_get(WIDE) === true); } catch (e) { return false; }
  }
  function keepWide(on) {
    try { if (window.__md_set) window.__md_set(WIDE, on); } catch (e) { /* storage refused */ }
  }

  var state = { engine: null, failed: false, game: null, kind: null, wide: keptWide(), selected: 0, hits: [] };
  var here = (function () {  /* the game whose page this is ("<game>/…" under the language's root), or null */
    var rootUrl = new URL(config.root, location.href).href, path = location.href.split(/[?#]/)[0];
    var m = path.indexOf(rootUrl) === 0 && /^([^/]+)\//.exec(path.slice(rootUrl.length));
    try { return m ? decodeURIComponent(m[1]) : null; } catch (e) { return null; }  /* a malformed %-escape: none */
  })();
  var single = config.one_game === true;  /* a one-game site: no game filter, no game named on each result */
  var ui = null;
  var KEY = "kb-search:" + config.lang + ":" + config.version;
  var waiting = [];
  var pending = {};  /* part name -> callbacks waiting for it */

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* ------------------------------------------------------------ data: once per language per visit */

  function keep(key, text) {
    try {
      for (var i = sessionStorage.length - 1; i >= 0; i--) {  /* another build's copies go */
        var k = sessionStorage.key(i);
        if (k && k.indexOf("kb-search:" + config.lang + ":") === 0 && k !== KEY && k.indexOf(KEY + ":") !== 0) sessionStorage.removeItem(k);
      }
      sessionStorage.setItem(key, text);
    } catch (e) { /* storage full or refused: the next page loads the script again */ }
  }

  function ready(text, store) {
    try {
      state.engine = new window.kbSearchEngine.Engine(JSON.parse(text));
    } catch (e) {
      state.failed = true;
      if (window.console) console.error("kb-search:", e);
    }
    if (store && state.engine) keep(KEY, text);
    document.documentElement.setAttribute("data-kb-search", state.engine ? "ready" : "failed");
    if (window.performance && performance.mark) performance.mark("kb-search-ready");
    waiting.splice(0).forEach(function (f) { f(); });
  }

  var started = false;

  /* The data: when the reader first opens search, or points at (hovers, focuses, touches) its button. */
  function load() {
    if (started) return;
    started = true;
    var cached = null;
    try { cached = sessionStorage.getItem(KEY); } catch (e) { /* storage refused */ }
    window.kbSearchData = function (lang, text, part) {
      if (lang !== config.lang) return;
      if (part) added(part, text, true);
      else if (!state.engine) ready(text, true);
    };
    if (cached) { ready(cached, false); return; }
    script(config.data, function () {  /* no connection, or a server that failed: tried again by the next query */
      started = false;
      document.documentElement.setAttribute("data-kb-search", "failed");
      waiting.splice(0);
      lost();
    });
  }

  function script(src, failed) {
    var tag = document.createElement("script");
    tag.src = src + "?v=" + encodeURIComponent(config.version);
    tag.async = true;
    tag.onerror = function () { tag.remove(); failed(); };
    document.head.appendChild(tag);
  }

  function added(part, text, store) {
    if (!pending[part] || !state.engine) return;
    try {
      state.engine.add(part, JSON.parse(text));
    } catch (e) {
      state.failed = true;
      if (window.console) console.error("kb-search:", part, e);
    }
    if (store) keep(KEY + ":" + part, text);
    var then = pending[part];
    delete pending[part];
    busy();
    then.forEach(function (f) { f(); });
  }

  /* <html data-kb-search-busy> while parts are on their way (the results shown may be the previous query's). */
  function busy() {
    if (Object.keys(pending).length) document.documentElement.setAttribute("data-kb-search-busy", "");
    else document.documentElement.removeAttribute("data-kb-search-busy");
  }

  /* The parts the engine found missing, from this visit's copies or their scripts; then, once all are in, done(). */
  function need(parts, done) {
    var left = parts.length;
    var one = function () { if (--left === 0) done(); };
    parts.forEach(function (part) {
      if (pending[part]) { pending[part].push(one); return; }
      pending[part] = [one];
      busy();
      var cached = null;
      try { cached = sessionStorage.getItem(KEY + ":" + part); } catch (e) { /* storage refused */ }
      if (cached) { added(part, cached, false); return; }
      script(config.data.replace(/\.js$/, "-" + part + ".js"), function () {  /* asked for again by the next query */
        delete pending[part];
        busy();
        lost();
      });
    });
  }

  /* Run search(), and when it read a part not loaded yet, load it and run again (done: the parts were all in). */
  function complete(engine, f, again) {
    engine.missing.clear();
    var out = f();
    if (!engine.missing.size) return out;
    need(Array.from(engine.missing), again);
    return null;
  }

  /* A script of the data could not be loaded (offline, a server's error): the dialog says so, "no connection" when the
   * browser knows it is offline, and the next query (or the connection's return) asks for it again (audit, 2026-12-07:
   * one failed load broke search on the page until it was reloaded). */
  function lost() {
    if (!ui || ui.root.hidden) return;
    var l = labels();
    ui.status.textContent = navigator.onLine === false ? (l.offline || "Offline.") : (l.failed || "Search is not available.");
    tell(ui.status.textContent);
    ui.list.textContent = "";
    ui.filters.hidden = true;
    state.hits = [];
  }

  window.addEventListener("online", function () { run(); });

  /* What a screen reader is told (accessibility audit M3: «Nada encontrado» was read out while a good word was still
   * being typed, and results came with no word of how many): the last query's words, once SETTLE ms have passed with
   * no newer ones; the region emptied first, so that the same words (another query, as many results) are said again. */
  var SETTLE = 750, telling = 0, told = 0;

  function tell(text) {
    var mine = ++told;
    window.clearTimeout(telling);
    telling = window.setTimeout(function () {
      if (!ui) return;
      ui.say.textContent = "";
      window.setTimeout(function () { if (mine === told && !ui.root.hidden) ui.say.textContent = text; }, 100);
    }, SETTLE);
  }

  /* A query's results in words: the suggestion, then how many there are, or that nothing was found. */
  function spoken(result, q, l) {
    if (!q.trim()) return "";
    var words = [];
    if (result.didYouMean) words.push((l.did_you_mean || "Did you mean") + " " + result.didYouMean + "?");
    if (result.total) words.push(counted(result.total));
    else if (!result.didYouMean) words.push([l.no_results, l.no_results_hint].filter(Boolean).join(" "));
    return words.join(" ");
  }

  /* "39 results; …" in the page's language: the catalog's form for n (kb.core.locale.plural_forms: pick, a digit per
   * n below its length, beyond that the form of 100 + n % 100), n written as the language writes numbers. */
  function counted(n) {
    var c = state.engine.data.count;
    if (!c || !c.forms || !c.forms.length) return String(n);
    var form = c.forms[+c.pick.charAt(n < c.pick.length ? n : 100 + n % 100)] || c.forms[0];
    return form.replace("{n}", n.toLocaleString(config.lang));
  }

  /* ------------------------------------------------------------ the dialog */

  function labels() {  /* the page's language from the first keystroke: the meta carries the words too */
    return (state.engine && state.engine.data.labels) || config.labels || {};
  }

  function build() {
    var l = labels();
    var root = el("div", "kb-search");
    root.hidden = true;
    root.setAttribute("role", "dialog");
    root.setAttribute("aria-modal", "true");
    root.setAttribute("aria-label", l.search || "Search");
    var scrim = el("div", "kb-search__scrim");
    scrim.addEventListener("click", close);
    var box = el("div", "kb-search__box");
    var form = el("form", "kb-search__form");
    form.setAttribute("role", "search");
    var input = el("input", "kb-search__input");
    input.type = "search";
    input.name = "q";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.setAttribute("aria-label", l.search || "Search");
    input.setAttribute("aria-controls", "kb-search-results");
    input.placeholder = l.placeholder || "";
    var shut = el("button", "kb-search__close md-icon", "×");
    shut.type = "button";
    shut.setAttribute("aria-label", l.close || "Close");
    shut.addEventListener("click", close);
    form.appendChild(input);
    form.appendChild(shut);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); go(state.selected); });
    var filters = el("div", "kb-search__filters");
    filters.hidden = true;
    var wide = null;
    if (here && !single) {
      var widen = el("label", "kb-search__wide");
      wide = el("input");
      wide.type = "checkbox";
      wide.checked = state.wide;
      wide.addEventListener("change", function () { state.wide = wide.checked; keepWide(state.wide); run(); });
      widen.appendChild(wide);
      widen.appendChild(document.createTextNode(" " + (l.everywhere || "")));
      filters.appendChild(widen);
    }
    var game = single ? null : el("select", "kb-search__game");
    if (game) {
      game.setAttribute("aria-label", l.games || "");
      game.addEventListener("change", function () { state.game = game.value || null; run(); });
      filters.appendChild(game);
    }
    var kind = el("select", "kb-search__kind");
    kind.setAttribute("aria-label", l.kinds || "");
    kind.addEventListener("change", function () { state.kind = kind.value || null; run(); });
    filters.appendChild(kind);
    var status = el("p", "kb-search__status");  /* for the eye: a screen reader is told by say, once typing settles */
    var say = el("p", "kb-search__say");
    say.setAttribute("role", "status");
    var list = el("ol", "kb-search__results");
    list.id = "kb-search-results";
    list.setAttribute("aria-label", l.results || "results");
    var hint = el("p", "kb-search__hint", l.hint || "");
    hint.id = "kb-search-hint";
    input.setAttribute("aria-describedby", hint.id);  /* the keys, for a screen reader even where the line is hidden */
    box.appendChild(form);
    box.appendChild(filters);
    box.appendChild(status);
    box.appendChild(say);
    box.appendChild(list);
    box.appendChild(hint);
    root.appendChild(scrim);
    root.appendChild(box);
    document.body.appendChild(root);
    input.addEventListener("input", function () { state.game = state.kind = null; run(); });
    input.addEventListener("keydown", keys);
    root.addEventListener("keydown", trap);
    return { root: root, input: input, filters: filters, wide: wide, game: game, kind: kind, status: status,
             say: say, list: list, hint: hint };
  }

  var opener = null;

  /* The phone's Back closes the dialog, as Escape does, rather than leave the page: opening it adds a history entry
   * (the same URL), Back (popstate) closes it; closed any other way, its entry is taken back (history.back(), whose
   * popstate is then let by), and a result opened from it replaces it, so no stray entry stays behind. */
  var entry = false, unwinding = false;

  function remember() {
    if (entry || unwinding) return;
    try { history.pushState({ kbSearch: true }, ""); entry = true; } catch (e) { /* file:// in some browsers */ }
  }

  function forget() {
    if (!entry) return;
    entry = false;
    unwinding = true;
    history.back();
  }

  window.addEventListener("popstate", function () {
    if (unwinding) {  /* the entry taken back by close(); reopened meanwhile: its entry now */
      unwinding = false;
      if (ui && !ui.root.hidden) remember();
      return;
    }
    if (entry) { entry = false; close(true); }
  });

  function open() {
    load();
    var restored = false;
    if (!ui) { ui = build(); restored = restore(); }
    if (ui.root.hidden) { opener = document.activeElement; remember(); }
    ui.root.hidden = false;
    document.documentElement.classList.add("kb-search--open");
    ui.input.focus();
    ui.input.select();
    run(restored);
  }

  function close(popped) {
    if (!ui) return;
    if (popped !== true) forget();
    var inside = ui.root.contains(document.activeElement);
    ui.root.hidden = true;
    told++;  /* nothing more is said of it */
    ui.say.textContent = "";
    document.documentElement.classList.remove("kb-search--open");
    /* focus goes back where it was; opened by a key from the page itself (no element had focus), to the search button */
    var back = opener && opener !== document.body && document.contains(opener) ? opener : document.querySelector(".kb-search__open");
    opener = null;
    if (back && back.focus) back.focus();
    /* never left on the hidden box: the next "/" or "s" would be typed into it instead of opening search */
    if (inside && ui.root.contains(document.activeElement)) document.activeElement.blur();
  }

  /* A modal: Tab and Shift+Tab cycle inside the dialog; Escape closes it from anywhere in it. */
  function trap(ev) {
    if (ev.key === "Escape") {
      ev.preventDefault();
      close();
      return;
    }
    if (ev.key !== "Tab") return;
    var stops = Array.prototype.filter.call(
      ui.root.querySelectorAll("input, button, a[href]"), function (e) { return e.offsetParent !== null; });
    if (!stops.length) return;
    var first = stops[0], last = stops[stops.length - 1], at = document.activeElement;
    if (ev.shiftKey && (at === first || !ui.root.contains(at))) { ev.preventDefault(); last.focus(); }
    else if (!ev.shiftKey && (at === last || !ui.root.contains(at))) { ev.preventDefault(); first.focus(); }
  }

  function go(i) {
    var hit = state.hits[i];
    if (hit && hit.url) leave(config.root + hit.url);
  }

  /* To a result: in place of the dialog's history entry (Back then returns to the page the search was opened on). */
  function leave(url) {
    trip(url);
    if (!entry) { window.location.href = url; return; }
    entry = false;
    close(true);
    window.location.replace(url);
  }

  function keys(ev) {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      if (!state.hits.length) return;
      var n = state.hits.length;
      select((state.selected + (ev.key === "ArrowDown" ? 1 : n - 1)) % n);
    }
  }

  function select(i) {
    state.selected = i;
    var links = ui.list.querySelectorAll("a");
    ui.input.removeAttribute("aria-activedescendant");
    for (var k = 0; k < links.length; k++) {
      links[k].classList.toggle("kb-search__hit--on", k === i);
      if (k === i) {
        ui.input.setAttribute("aria-activedescendant", links[k].id);  /* read out as the selection moves */
        links[k].scrollIntoView({ block: "nearest" });
      }
    }
  }

  /* The filters: on a game's page "search every game" (else that game's entries come first where they match as well),
   * on its own line on a phone, then the game and the kind as selectors, in a fixed order, each option with its count. */
  function fill(select, names, counts, current, everything) {
    select.textContent = "";
    var total = 0;
    Object.keys(counts).forEach(function (k) { total += counts[k]; });
    select.appendChild(option("", everything + " (" + total + ")", false));
    Object.keys(names).forEach(function (k) {
      var n = counts[k] || 0;
      select.appendChild(option(k, names[k] + " (" + n + ")", !n && k !== current));
    });
    select.value = current || "";
  }

  function option(value, text, off) {
    var o = el("option", null, text);
    o.value = value;
    o.disabled = off;
    return o;
  }

  /* The games counted over every game; the kinds within the game chosen (inGame: the query with that filter only), so
   * that «Tipo» offers what the list can show (phone audit 3, D24: Malifaux's «Terreno (1)» counted another game's). */
  function filters(all, inGame) {
    var data = state.engine.data, l = labels();
    ui.filters.hidden = !ui.input.value.trim() || !all.total;
    if (ui.filters.hidden) return;
    if (ui.game) fill(ui.game, data.games, all.byGame, state.game, l.all_games || "");
    fill(ui.kind, data.kinds, inGame.byKind, state.kind, l.all_kinds || "");
    if (ui.wide) ui.wide.checked = state.wide;
  }

  /* This page's game first where it matches the query's words as well (kbSearchEngine.prefer), unless widened or filtered. */
  function local(hits) {
    if (!here || state.wide || state.game) return hits;
    return window.kbSearchEngine.prefer(hits, here);
  }

  /* While the query's parts are on their way, the previous query's words ("did you mean", "nothing found") go: a
   * suggestion made for a word typed half-way stayed up over the whole question (phone audit 3, D21). */
  function loading(l) {
    if (ui.status.textContent) ui.status.textContent = l.loading || "…";
  }

  function line(text, marks, terms) {
    var p = el("span", "kb-search__line");
    state.engine.highlight(text, marks, terms).forEach(function (piece) {
      p.appendChild(piece[1] ? el("mark", null, piece[0]) : document.createTextNode(piece[0]));
    });
    return p;
  }

  function run(keepSelection) {
    if (!ui || ui.root.hidden) return;
    var l = labels(), q = ui.input.value;
    if (!state.engine || state.failed) {
      ui.status.textContent = state.failed ? (l.failed || "Search is not available.") : (l.loading || "…");
      tell(ui.status.textContent);
      ui.list.textContent = "";
      if (!state.failed && waiting.indexOf(run) < 0) waiting.push(keepSelection === true ? function () { run(true); } : run);
      if (!state.failed) load();  /* its last load failed: again */
      return;
    }
    ui.input.placeholder = l.placeholder || "";
    ui.hint.textContent = l.hint || "";
    var engine = state.engine, asked = { q: q, game: state.game, kind: state.kind };
    var again = function () { if (ui.input.value === asked.q && state.game === asked.game && state.kind === asked.kind) run(keepSelection); };
    var all = complete(engine, function () { return engine.search(q, {}); }, again);
    var inGame = all && (state.game ? complete(engine, function () { return engine.search(q, { game: state.game }); }, again) : all);
    var result = inGame && (state.kind ? complete(engine, function () { return engine.search(q, { game: state.game, kind: state.kind }); }, again) : inGame);
    if (!result) { loading(l); tell(l.loading || "…"); return; }  /* the parts are on their way: run() again once in */
    filters(all, inGame);
    tell(spoken(result, q, l));
    ui.status.textContent = "";
    if (result.didYouMean) {
      ui.status.appendChild(document.createTextNode((l.did_you_mean || "Did you mean") + " "));
      var fix = el("a", "kb-search__fix", result.didYouMean);
      fix.href = "#";
      fix.addEventListener("click", function (ev) {
        ev.preventDefault();
        ui.input.value = result.didYouMean;
        run();
        ui.input.focus();
      });
      ui.status.appendChild(fix);
      ui.status.appendChild(document.createTextNode("?"));
    } else if (q.trim() && !result.hits.length) {
      ui.status.textContent = [l.no_results, l.no_results_hint].filter(Boolean).join(" ");
    }
    ui.list.textContent = "";
    engine.missing.clear();  /* the marks read the entry's own terms (else the word list: shown now, marked again once its parts are in) */
    state.hits = local(result.hits);
    state.hits.forEach(function (hit, i) {
      var li = el("li", "kb-search__item");
      var a = el("a", "kb-search__hit");
      a.href = hit.url ? config.root + hit.url : "#";
      a.setAttribute("data-kb-id", hit.id);
      a.id = "kb-search-hit-" + i;
      a.appendChild(el("span", "kb-search__title", hit.title));
      a.appendChild(el("span", "kb-search__meta", (single ? "" : (engine.data.games[hit.game] || hit.game) + " · ") +
                       (engine.data.kinds[hit.kind] || hit.kind)));
      if (hit.summary) a.appendChild(line(hit.summary, result.marks, hit.summaryTerms));
      a.addEventListener("mousemove", function () { if (state.selected !== i) select(i); });
      a.addEventListener("click", function (ev) {  /* a tap or a plain click: as go(); a new tab keeps its own way */
        if (ev.button || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey || !hit.url) return;
        ev.preventDefault();
        leave(a.href);
      });
      li.appendChild(a);
      ui.list.appendChild(li);
    });
    select(keepSelection === true && state.selected < state.hits.length ? state.selected : 0);
    /* offline, the results whose page is not saved are marked, in place (kb-offline.js) */
    if (window.kbOffline) window.kbOffline.mark(ui.list.querySelectorAll("a.kb-search__hit"));
    if (engine.missing.size) need(Array.from(engine.missing), again);
  }

  /* ------------------------------------------------------------ opening it */

  function typing(target) {
    if (!target) return false;
    var tag = target.tagName;
    return target.isContentEditable || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }

  function opens(ev) {  /* "/" or "s", outside a field (the page's loader holds back the keys after the same ones) */
    return !(ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) && (ev.key === "/" || ev.key === "s" || ev.key === "S");
  }

  /* A key no touch screen's own keyboard sends (Tab, Escape, ↑ ↓; "/" or "s" outside a field, where no such keyboard
   * is up): a keyboard is there, so the keys' line shows on a touch screen too (<html class="kb-keys">, kb.css;
   * accessibility audit L4: the phone player with a Bluetooth keyboard never learnt the keys). */
  var KEYBOARD = { Tab: true, Escape: true, ArrowUp: true, ArrowDown: true };

  function keyboard(ev) {
    if (KEYBOARD[ev.key] === true || opens(ev)) document.documentElement.classList.add("kb-keys");
  }

  document.addEventListener("keydown", keyboard, true);

  document.addEventListener("keydown", function (ev) {
    if (!opens(ev)) return;
    ev.preventDefault();
    ev.stopPropagation();
    open();
  }, true);

  /* The keys pressed before this script ran, which the page's loader kept (window.kbEarly, kb.site.app.script_loader:
   * our scripts come once the page has loaded): the first that opens search opens it, the characters typed after it
   * go into the box and Escape closes it, so a reader quicker than the scripts loses nothing. */
  function replay(keys) {
    var typed = false;
    keys.forEach(function (ev) {
      keyboard(ev);
      if (!ui || ui.root.hidden) { if (opens(ev)) open(); }
      else if (ev.key === "Escape") close();
      else if (ev.key.length === 1 && !(ev.ctrlKey || ev.metaKey || ev.altKey)) { ui.input.value += ev.key; typed = true; }
    });
    if (typed) ui.input.dispatchEvent(new Event("input"));
  }

  function button() {
    var header = document.querySelector(".md-header__inner");
    if (!header || header.querySelector(".kb-search__open")) return;
    var b = el("button", "kb-search__open md-header__button md-icon");
    b.type = "button";
    var name = config.label || "Search";
    b.setAttribute("aria-label", name);
    b.title = name + " (/)";
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", "M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 9.5 12 5 9.5 5");
    svg.appendChild(path);
    b.appendChild(svg);
    b.addEventListener("click", open);
    ["pointerenter", "focus", "touchstart"].forEach(function (type) {
      b.addEventListener(type, load, { passive: true });
    });
    var before = header.querySelector(".md-header__source") || null;
    header.insertBefore(b, before);
  }

  /* The button at once; the data only when the reader reaches for search (a first visit stays light). */
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", button);
  else button();

  /* A visit that has searched holds the data already (sessionStorage): the engine is built once the page has loaded
   * and the browser is idle, so that the first key finds it ready (issue 29). A first visit still waits for the reader. */
  function warm() {
    var kept = null;
    try { kept = sessionStorage.getItem(KEY); } catch (e) { /* storage refused */ }
    if (kept) (window.requestIdleCallback || window.setTimeout)(function () { load(); });
  }
  if (document.readyState === "complete") warm();
  else window.addEventListener("load", warm, { once: true });

  /* ------------------------------------------------------------ to a result and back (accessibility audit L5) */

  /* The way to a result, kept for the visit: the page it was opened from, the result's address, the query and the
   * result selected. */
  var TRIP = "kb-search-trip";

  function trip(url) {
    var way = { from: location.href, to: new URL(url, location.href).href, q: ui ? ui.input.value : "", at: state.selected };
    try { sessionStorage.setItem(TRIP, JSON.stringify(way)); } catch (e) { /* storage refused: the focus as before */ }
  }

  function tripped() {
    try { return JSON.parse(sessionStorage.getItem(TRIP) || "null"); } catch (e) { return null; }
  }

  function free() {  /* no control has the focus: it is the page's, not taken from the reader */
    return !document.activeElement || document.activeElement === document.body;
  }

  /* On the result's page, the focus on the passage it opened at (the one marked, :target), as a link to a step
   * focuses its step: it stayed on <body>, at the top for a screen reader. */
  function landed(way) {
    var to = way && way.to.split("#");
    if (!to || to.length < 2 || to[0] !== location.href.split("#")[0] || !free()) return;
    var id;
    try { id = decodeURIComponent(to[1]); } catch (e) { return; }
    var passage = id && document.getElementById(id);
    if (!passage || !passage.getClientRects().length) return;  /* hidden (a stepper's list): its own helper's */
    if (passage.tabIndex < 0 && !passage.hasAttribute("tabindex")) passage.setAttribute("tabindex", "-1");
    passage.focus({ preventScroll: true });
  }

  /* Back on the page the result was opened from (loaded again): the focus on the search button, which opens the
   * dialog with the query and the result as they were (it stayed on <body> and the query was gone). */
  var kept = null;

  function back(way) {
    var nav = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (!way || way.from !== location.href || !nav || nav.type !== "back_forward") return;
    try { sessionStorage.removeItem(TRIP); } catch (e) { /* storage refused */ }
    kept = way;
    var b = document.querySelector(".kb-search__open");
    if (b && free()) b.focus();
  }

  /* The query kept by back(), once, into the dialog just built: true when there is one (its selection kept too). */
  function restore() {
    if (!kept) return false;
    ui.input.value = kept.q;
    state.selected = kept.at || 0;
    kept = null;
    return true;
  }

  landed(tripped());
  back(tripped());

  var early = window.kbEarly || [];
  window.kbEarly = null;  /* taken: the loader lets the next keys go by */
  replay(early);
  window.kbSearch = { open: open, close: close, load: load, state: state };
})();
