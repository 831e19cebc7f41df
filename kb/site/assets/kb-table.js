/* The site at the table (docs/site.md, "At the table"): numbered paragraphs with a copy-link button,
 * a preview card on links to entries, glossary tooltips on the first mention of a term per section
 * (focusable, shown on focus, closed by Escape), and a language switcher that keeps the #anchor.
 * Data: window.KB_TABLE from kb-table-<lang>.js and the page's game's part(s), window.KB_TABLE_PARTS, from
 * <game>/kb-table-<lang>.js (kb/site/preview.py), named by the head's <meta name="kb-table"> and loaded here once the
 * page has loaded and the browser is idle: the first paint never waits for them (issue 29). Every text from the data
 * is set with textContent: nothing becomes markup. */
(function () {
  "use strict";

  /* The id the URL's fragment names ("" for none): a malformed percent-escape in it (a hand-made "#%E0%A4%A") names
   * nothing, rather than throwing and stopping this script part-way. */
  function hashId() {
    try { return decodeURIComponent(location.hash.slice(1)); } catch (e) { return ""; }
  }

  /* Never entered by the glossary tooltips. A form's controls and labels above all: a span in an <option> leaves it
   * nameless in Chromium's accessibility tree (audit a11y H1), and a calculator rewrites its answer anyway. */
  var SKIP = "a, h1, h2, h3, h4, h5, h6, code, pre, button, summary, .kb-term, .kb-crumbs, .kb-place, .kb-meta, " +
    ".admonition-title, .headerlink, .kb-cite-btn, .kb-game, script, style, abbr, " +
    "form, .kb-calc, select, option, optgroup, label, input, textarea, output";
  var data = null, root = "", tip = null, card = null, status = null, hideTimer = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function word(key) {  /* the words' file may be read before start() keeps it as data (the drawer's names) */
    var d = data || window.KB_TABLE;
    return (d && d.labels && d.labels[key]) || "";
  }
  function label(key) { return word(key) || key; }

  /* A label with each {name} of ``values`` (its own keys only) put in; any other {x} stays as typed. */
  function filled(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return Object.prototype.hasOwnProperty.call(values, k) ? values[k] : m; });
  }

  /* ---------------------------------------------------------------- where the language's root is */
  function findRoot() {
    var s = document.querySelector('script[src*="kb-table-"]');  /* the words, first: at the language's root */
    if (!s) return "";
    return s.src.replace(/kb-table-[a-z]+\.js(\?.*)?$/, "");
  }

  function entryKey(href) {
    if (!root || href.indexOf(root) !== 0) return null;
    var rest = href.slice(root.length), hash = "", i = rest.indexOf("#");
    if (i >= 0) { hash = rest.slice(i); rest = rest.slice(0, i); }
    rest = rest.replace(/\?.*$/, "");
    if (data.entries[rest + hash]) return rest + hash;
    return data.entries[rest] ? rest : null;
  }

  /* ---------------------------------------------------------------- copy link + citation */
  function copyText(text, done) {
    function fallback() {
      var ta = el("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.style.position = "fixed"; ta.style.top = "0"; ta.style.left = "-9999px";
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      done(ok);
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  function say(text) {
    if (!status) return;
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 30);
  }

  function citation() {
    var c = document.querySelector(".kb-place code");
    return c ? c.textContent : null;
  }

  /* The blocks that carry an id written at build time (kb/view/anchors.py: the same id in both languages):
   * paragraphs and list items (#summary, #text-2, #notes-1, #question, #answer, #source), a table's <div>,
   * a worked example's heading (#example-…) and a step's item (its id on the <span> it starts with). */
  var CITED = "p[id], li[id], div[id^='text-'], div[id^='notes-'], h3[id^='example-'], li:has(> span[id^='step-']), li:has(> p:first-child > span[id^='step-'])";

  var UNCITED = ".kb-crumbs, .kb-place, .kb-offline, .kb-offline *";  /* ids of their own, but not the text's blocks */

  function blockId(b) {
    if (b.matches(UNCITED)) return null;
    if (b.id) return b.id;
    var step = b.querySelector(":scope > span[id^='step-'], :scope > p:first-child > span[id^='step-']");
    return step ? step.id : null;
  }

  /* A block's own text: without its permalink's «¶» and its copy button (a heading's «¶5»). */
  function ownText(b) {
    var copy = b.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll(".headerlink, .kb-cite-btn"), function (x) { x.remove(); });
    return (copy.textContent || "").replace(/\s+/g, " ").trim();
  }

  function words(b) {
    var t = ownText(b).split(" ");
    return t.slice(0, 8).join(" ") + (t.length > 8 ? "…" : "");
  }

  /* The ¶ buttons are one tab stop together (a roving tabindex): Tab reaches the current one, the arrow
   * keys move to the next or previous paragraph's, Home and End to the first and last. */
  function rove(buttons) {
    function go(i) {
      if (i < 0 || i >= buttons.length) return;
      buttons.forEach(function (b, j) { b.tabIndex = j === i ? 0 : -1; });
      buttons[i].focus();
    }
    buttons.forEach(function (btn, i) {
      btn.tabIndex = i === 0 ? 0 : -1;
      btn.addEventListener("keydown", function (ev) {
        var to = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: buttons.length - 1 }[ev.key];
        if (to == null) return;
        ev.preventDefault();
        go(to);
      });
    });
    var hashed = location.hash && document.getElementById(hashId());
    var at = hashed ? buttons.indexOf(hashed.querySelector(".kb-cite-btn")) : -1;
    if (at > 0) buttons.forEach(function (b, j) { b.tabIndex = j === at ? 0 : -1; });
  }

  /* On a touch screen the ¶ of a block shows after a long press on it (0.4 s, the finger still; the browser's own
   * long press, which may cancel the touch, counts too). */
  function longPress(b) {
    var timer = null;
    function stop() { window.clearTimeout(timer); timer = null; }
    function on() {
      stop();
      Array.prototype.forEach.call(document.querySelectorAll(".kb-cite--on"), function (o) { o.classList.remove("kb-cite--on"); });
      b.classList.add("kb-cite--on");
    }
    b.addEventListener("touchstart", function () { stop(); timer = window.setTimeout(on, 400); }, { passive: true });
    ["touchend", "touchmove", "touchcancel"].forEach(function (t) { b.addEventListener(t, stop, { passive: true }); });
    b.addEventListener("contextmenu", function (ev) { if (!ev.target.closest("a")) on(); });
  }

  function numberParagraphs(article) {
    var cite = citation();
    var h1 = article.querySelector("h1");
    var title = h1 ? h1.textContent.replace(/[¶#]\s*$/, "").trim() : document.title;
    var n = 0, buttons = [];
    Array.prototype.forEach.call(article.querySelectorAll(CITED), function (b) {
      var id = blockId(b);
      if (!id) return;
      n += 1;
      var num = n;  /* this block's number (n goes on counting) */
      var mark = "¶" + num;
      var btn = el("button", "kb-cite-btn", mark);
      btn.type = "button";
      btn.setAttribute("aria-label", mark + " " + label("copy_link") + ": " + words(b));
      btn.setAttribute("aria-keyshortcuts", "ArrowUp ArrowDown");
      btn.title = label("copy_link");
      btn.addEventListener("click", function () {
        var url = location.href.replace(/#.*$/, "") + "#" + id;
        var line = cite ? title + " [" + cite + " ¶" + num + "]" : title + " ¶" + num;
        try { history.replaceState(null, "", "#" + id); } catch (e) { /* file:// in some browsers */ }
        copyText(line + "\n" + url, function (ok) { say(ok ? label("copied") : label("copy_failed")); });
      });
      b.insertBefore(btn, b.firstChild);
      b.classList.add("kb-cited");
      buttons.push(btn);
      longPress(b);
    });
    rove(buttons);
    document.addEventListener("touchstart", function (ev) {
      Array.prototype.forEach.call(document.querySelectorAll(".kb-cite--on"), function (o) {
        if (!o.contains(ev.target)) o.classList.remove("kb-cite--on");
      });
    }, { passive: true });
  }

  /* A heading's permalink was named by its glyph, «¶» (its words, "Enlace permanente" / "Permanent link", only a
   * title), and a heading's name took in its permalink and a worked example's copy button: «¶17 Copiar enlace: …¶ …
   * ¶» in a screen reader's list of headings (audit-a11y M9, L1). The permalink is named by its title (the catalog's,
   * in the page's language), a heading by its own text; their ids stay. */
  function namePermalinks(article) {
    Array.prototype.forEach.call(article.querySelectorAll("a.headerlink"), function (a) {
      var h = a.parentNode;
      if (a.title) a.setAttribute("aria-label", a.title);
      if (/^H[1-6]$/.test(h.tagName) && ownText(h)) h.setAttribute("aria-label", ownText(h));
    });
  }

  /* ---------------------------------------------------------------- tooltips and preview cards */
  function place(box, target) {
    var r = target.getBoundingClientRect();
    box.style.left = Math.max(8, Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - box.offsetWidth - 8)) + "px";
    var below = window.scrollY + r.bottom + 6;
    if (r.bottom + box.offsetHeight + 12 > window.innerHeight && r.top > box.offsetHeight + 12) {
      below = window.scrollY + r.top - box.offsetHeight - 6;
    }
    box.style.top = below + "px";
  }

  function fill(box, key, withTitle) {
    var e = data.entries[key];
    box.textContent = "";
    if (!e) return false;
    if (withTitle) box.appendChild(el("strong", "kb-card__title", e[0]));
    box.appendChild(el("span", "kb-card__meta", [e[1], e[2]].filter(Boolean).join(" · ")));
    if (e[3]) box.appendChild(el("span", "kb-card__summary", e[3]));
    return true;
  }

  function show(box, target, key, withTitle) {
    window.clearTimeout(hideTimer);
    hideAll();
    if (!fill(box, key, withTitle)) return;
    box.hidden = false;
    target.setAttribute("aria-describedby", box.id);
    place(box, target);
  }

  function hideAll() {
    [tip, card].forEach(function (b) {
      if (!b || b.hidden) return;
      b.hidden = true;
      var owner = document.querySelector('[aria-describedby="' + b.id + '"]');
      if (owner) owner.removeAttribute("aria-describedby");
    });
  }

  function later() { hideTimer = window.setTimeout(hideAll, 150); }

  /* A mouse shows a tip on hover; a finger by a tap, which a second tap (or a tap elsewhere) hides. A tap also sends
   * the mouse's enter and leave: with "mouseenter" the tap's enter showed the tip and its click hid it at once
   * (audit, 2026-12-07), so hover is read from pointer events, which say what pointed. */
  function bind(target, box, key, withTitle) {
    target.addEventListener("pointerenter", function (ev) { if (ev.pointerType !== "touch") show(box, target, key, withTitle); });
    target.addEventListener("focus", function () { show(box, target, key, withTitle); });
    if (target.classList.contains("kb-term")) {
      target.addEventListener("click", function () {  /* a tap on a touch screen */
        if (box.hidden || target.getAttribute("aria-describedby") !== box.id) show(box, target, key, withTitle);
        else hideAll();
      });
    }
    target.addEventListener("pointerleave", function (ev) { if (ev.pointerType !== "touch") later(); });
    target.addEventListener("blur", later);
  }

  function previews(article) {
    Array.prototype.forEach.call(article.querySelectorAll("a[href]"), function (a) {
      if (a.classList.contains("headerlink") || a.closest(".kb-crumbs")) return;
      var key = entryKey(a.href);
      if (key && key !== entryKey(location.href.replace(/#.*$/, ""))) bind(a, card, key, true);
    });
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  function pageGame() {
    var here = location.href.replace(/[#?].*$/, "");
    if (!root || here.indexOf(root) !== 0) return null;
    var first = here.slice(root.length).split("/")[0];
    return data.terms[first] ? first : null;
  }

  function tooltips(article) {
    var game = pageGame(), forms = [];
    Object.keys(data.terms).forEach(function (g) {
      if (!game || g === game) forms = forms.concat(data.terms[g]);
    });
    if (!forms.length) return;
    forms.sort(function (a, b) { return b[0].length - a[0].length; });
    var byForm = {};
    forms.forEach(function (f) { if (!byForm[f[0]]) byForm[f[0]] = f[1]; });
    var re;
    try {
      re = new RegExp("(?<![\\p{L}\\p{N}])(" + Object.keys(byForm).map(escapeRe).join("|") + ")(?![\\p{L}\\p{N}])", "u");
    } catch (e) { return; }
    var self = entryKey(location.href.replace(/#.*$/, ""));
    var seen = {}, found = [];
    var section = 0;  /* the number of headings before a text: a new section starts at each (the walk is in document order) */
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        if (node.nodeType !== 1) return NodeFilter.FILTER_ACCEPT;
        if (/^H[1-4]$/.test(node.tagName)) section += 1;
        return node.matches(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
      }
    });
    var texts = [], node;
    while ((node = walker.nextNode())) texts.push([node, section]);
    texts.forEach(function (pair) {
      var section = pair[1], rest = pair[0], m;
      while (rest && (m = re.exec(rest.nodeValue))) {
        var key = byForm[m[1]], mark = section + "|" + key;
        if (key === self || seen[mark]) {
          /* look further along this text node only */
          var after = rest.splitText(m.index + m[0].length);
          rest = after;
          continue;
        }
        seen[mark] = true;
        if (found.indexOf(key) < 0) found.push(key);
        var word = rest.splitText(m.index);
        rest = word.splitText(m[0].length);
        var span = el("span", "kb-term", word.nodeValue);  /* not a tab stop: the list below holds them all */
        word.parentNode.replaceChild(span, word);
        bind(span, tip, key, true);
      }
    });
    termsList(article, found);
  }

  /* The page's glossary terms in one place, one tab stop: a <details> at the end of the article, each
   * term a link to its entry with its definition (what the tooltips show on hover or tap). */
  function termsList(article, keys) {
    if (!keys.length || article.querySelector(".kb-az")) return;  /* the glossary is that list already */
    var box = el("details", "kb-terms");
    box.appendChild(el("summary", null, label("terms_here") + " (" + keys.length + ")"));
    var list = el("ul");
    keys.slice().sort(function (a, b) { return data.entries[a][0].localeCompare(data.entries[b][0], data.lang); })
      .forEach(function (key) {
        var e = data.entries[key], li = el("li"), a = el("a", null, e[0]);
        a.href = root + key;
        li.appendChild(a);
        if (e[3]) li.appendChild(document.createTextNode(" — " + e[3]));
        list.appendChild(li);
      });
    box.appendChild(list);
    article.appendChild(box);
  }

  /* ---------------------------------------------------------------- the glossary's filter */
  function fold(s) { return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }

  function glossaryFilter(article) {
    var bar = article.querySelector(".kb-az");
    if (!bar) return;
    var input = el("input", "kb-filter");
    input.type = "search";
    input.setAttribute("aria-label", label("filter_terms"));
    input.placeholder = label("filter_terms");
    var count = el("p", "kb-filter__count");
    count.setAttribute("role", "status");
    var place = article.querySelector(".kb-filter-place");  /* as high as the filter (kb.css): nothing moves */
    if (place) place.parentNode.replaceChild(input, place);
    else bar.parentNode.insertBefore(input, bar.nextSibling);
    input.parentNode.insertBefore(count, input.nextSibling);
    var heads = Array.prototype.slice.call(article.querySelectorAll("h2"));
    input.addEventListener("input", function () {
      var q = fold(input.value.trim()), shown = 0;
      heads.forEach(function (h) {
        var part = [h], x = h.nextElementSibling;
        while (x && x.tagName !== "H2" && !x.classList.contains("kb-terms")) { part.push(x); x = x.nextElementSibling; }
        var on = !q || fold(part.map(function (p) { return p.textContent; }).join(" ")).indexOf(q) >= 0;
        part.forEach(function (p) { p.hidden = !on; });
        if (on) shown += 1;
      });
      count.textContent = q ? (shown ? label("terms_shown").replace("{n}", shown) : label("no_term")) : "";
    });
  }

  /* ---------------------------------------------------------------- the language switcher keeps the #anchor */
  /* The place in the page: its #anchor, else (scrolled, no anchor) the first block with a build-time id (the same in
   * both languages) that starts in sight under the header, so that switching mid-read lands on the same paragraph; a
   * block the header covers the top of is the one read only when no other starts on the screen (a long one fills it).
   * (The first block reaching below the header was taken: often the one hidden behind it, audit-phone3 D11.) A
   * #step-… anchor (the step the reader moved the stepper to) is the place only while a stepper is in sight: a reader
   * who read on past it lands on the paragraph read (the step goes along all the same: carrySteps()). */
  function here() {
    var header = document.querySelector(".md-header"), top = header ? header.getBoundingClientRect().bottom : 0;
    if (location.hash && (!/^#step-/.test(location.hash) || stepperInSight(top))) return location.hash;
    if (window.scrollY <= 0) return "";
    var blocks = document.querySelectorAll("article.md-content__inner :is(" + CITED + ")"), covered = "";
    for (var i = 0; i < blocks.length; i++) {
      var id = blockId(blocks[i]), r = blocks[i].getBoundingClientRect();
      if (!id || r.height <= 0 || r.bottom <= top + 1) continue;
      if (r.top < top - 1) covered = covered || "#" + id;
      else return r.top < window.innerHeight || !covered ? "#" + id : covered;
    }
    return covered;
  }

  /* Whether some part of a stepper (kb-stepper.js) shows between the header's bottom (``top``) and the screen's. */
  function stepperInSight(top) {
    return Array.prototype.some.call(document.querySelectorAll(".kb-stepper__ui"), function (ui) {
      var r = ui.getBoundingClientRect();
      return r.height > 0 && r.bottom > top + 1 && r.top < window.innerHeight;
    });
  }

  /* The step each stepper of the page shows (data-kb-stepper-at, by the sequence's id: the same in both languages), for
   * the page the link opens: kb-stepper.js opens its steppers at them when its address names no step (sessionStorage
   * "kb-step", read once). The step is kept whatever the place the switcher lands on. */
  function carrySteps(a) {
    var steps = {}, boxes = document.querySelectorAll("[data-kb-stepper][data-kb-stepper-at]");
    Array.prototype.forEach.call(boxes, function (b) { steps[b.getAttribute("data-kb-stepper")] = b.getAttribute("data-kb-stepper-at"); });
    try {
      if (boxes.length) sessionStorage.setItem("kb-step", JSON.stringify({ page: new URL(a.href).pathname, steps: steps }));
    } catch (e) { /* storage off */ }
  }

  function switcher() {
    Array.prototype.forEach.call(document.querySelectorAll("a.md-select__link[hreflang]"), function (a) {
      a.addEventListener("click", function () {
        try { localStorage.setItem("kb-lang", a.getAttribute("hreflang")); } catch (e) { /* storage off */ }
        a.href = a.href.replace(/#.*$/, "") + here();
        carrySteps(a);
      });
    });
  }

  /* ---------------------------------------------------------------- the language menu's semantics */
  /* The theme's language menu opens under its button on focus or hover (CSS), with nothing to say so: the button now
   * says whether the list shows (aria-expanded, aria-controls), Escape closes it (the focus on the button) and Enter
   * or Space opens or closes it; each language's name is in its own language (lang, for a screen reader's voice) and
   * the page's is marked current (audit-a11y L2). */
  function languageMenu() {
    var select = document.querySelector(".md-header__option .md-select");
    var button = select && select.querySelector(":scope > button"), list = select && select.querySelector(".md-select__inner");
    if (!button || !list) return;
    list.id = list.id || "kb-languages";
    button.setAttribute("aria-controls", list.id);
    Array.prototype.forEach.call(list.querySelectorAll("a[hreflang]"), function (a) {
      a.setAttribute("lang", a.getAttribute("hreflang"));
      if (a.getAttribute("hreflang") === document.documentElement.lang) a.setAttribute("aria-current", "true");
    });
    function state() {
      var open = select.matches(":focus-within, :hover") && !select.classList.contains("kb-select--closed");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    }
    function closed(on) { select.classList.toggle("kb-select--closed", on); state(); }
    state();
    select.addEventListener("focusin", state);
    select.addEventListener("pointerenter", state);
    select.addEventListener("pointerleave", state);
    select.addEventListener("focusout", function () {
      window.setTimeout(function () { if (!select.contains(document.activeElement)) closed(false); }, 0);
    });
    select.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        closed(true);
        button.focus();
      } else if ((ev.key === "Enter" || ev.key === " ") && ev.target === button) {
        ev.preventDefault();
        closed(button.getAttribute("aria-expanded") === "true");
      }
    });
  }

  /* ---------------------------------------------------------------- the menu's drawer by keyboard */
  /* Below 76.25em the theme's menu is a drawer, opened by a <label for="__drawer"> that is no tab stop, and kb.css
   * takes the closed drawer out of the tab order. The label gives way to a button with its icon (named as the menu's
   * <nav>, aria-expanded; a label may not take the role): a tap opens the drawer as the label did, Enter or Space opens
   * it with the focus on the first link of the level it shows, and Escape closes it and gives the focus back (as does
   * closing it any other way while the focus is in it). Open, the drawer keeps the focus: Tab and Shift+Tab go round
   * the stops of the level in sight only (kb.css hides the others: the levels under or beside it), and its labels (a
   * level's title, which goes back up, and an item's, which opens its level) are stops that Enter or Space follows. */
  var LEVEL_STOPS = "a[href], label[for^='__nav'], label[for='__toc']";

  /* The level in sight: the deepest <nav> of the menu whose toggle (the checkbox before it) is checked. */
  function shownLevel(nav) {
    var open = Array.prototype.filter.call(nav.querySelectorAll("nav.md-nav"), function (n) { return isOpen(n, nav); });
    return open.length ? open[open.length - 1] : nav;
  }

  function isOpen(level, nav) {
    if (level === nav) return true;
    var t = level.parentNode.querySelector(":scope > .md-nav__toggle");
    return !!(t && t.checked) && isOpen(level.parentNode.closest("nav.md-nav"), nav);
  }

  /* The tab stops of the level in sight, in order: its own links and labels, none of a level inside it, none the theme
   * leaves out (display: none). */
  function levelStops(nav) {
    var level = shownLevel(nav);
    return Array.prototype.filter.call(level.querySelectorAll(LEVEL_STOPS), function (e) {
      var own = e.closest("nav.md-nav") === level || (e.tagName === "LABEL" && e.parentNode.closest("nav.md-nav") === level);
      return own && e.getClientRects().length > 0;
    });
  }

  function firstStop(nav) {
    var stops = levelStops(nav), items = stops.filter(function (e) { return !e.classList.contains("md-nav__title"); });
    return items[0] || stops[0] || null;
  }

  /* Tab inside the open drawer: round its level's stops. */
  function roundTab(ev, nav) {
    var stops = levelStops(nav);
    if (!stops.length) return;
    ev.preventDefault();
    var i = stops.indexOf(document.activeElement), n = stops.length;
    var to = i < 0 ? (ev.shiftKey ? n - 1 : 0) : (i + (ev.shiftKey ? n - 1 : 1)) % n;
    stops[to].focus();
  }

  /* The drawer's labels by key: each a tab stop; Enter or Space follows it, the focus then on the new level's first. */
  function keyLabels(nav, button) {
    Array.prototype.forEach.call(nav.querySelectorAll("label[for^='__nav'], label[for='__toc']"), function (l) {
      l.tabIndex = 0;
    });
    nav.addEventListener("keydown", function (ev) {
      var l = ev.target;
      if ((ev.key !== "Enter" && ev.key !== " ") || l.tagName !== "LABEL") return;
      ev.preventDefault();
      l.click();
      var first = button.offsetParent && firstStop(nav);  /* in a drawer (a phone), not the wide screen's sidebar */
      if (first) first.focus();
    });
  }

  /* A level's title goes back up to the level above (the theme shows an arrow and says nothing of it): named with its
   * words' menu_back, its own name first, «Términos: volver a StarCraft» / "Terms: back to StarCraft" (the name of the
   * level it goes back to as that level's title shows it), once the words are loaded (init()). */
  function titleText(label) {
    var copy = label.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll("a, .md-nav__icon"), function (x) { x.remove(); });
    return (copy.textContent || "").replace(/\s+/g, " ").trim();
  }

  function backNames(nav) {
    var say = word("menu_back");
    if (!say || !nav) return;
    Array.prototype.forEach.call(nav.querySelectorAll("label.md-nav__title[for^='__nav'], label.md-nav__title[for='__toc']"), function (l) {
      var up = l.parentNode.parentNode.closest("nav.md-nav"), above = up && up.querySelector(":scope > label.md-nav__title");
      if (!above) return;
      l.setAttribute("aria-label", filled(say, { level: titleText(l), parent: titleText(above) }));
    });
  }

  /* The drawer's other labels (keyLabels(): tab stops) are named too, once the words are loaded (init()): Chromium names
   * a focusable label by its aria-label only. An item's label (into its level) by its text; beside a level's own page
   * the arrow that opens the level (the theme's container: the page's link, then the arrow, no text) with the words'
   * menu_open and the page's name, «Abrir StarCraft» / "Open StarCraft". */
  function labelName(l, say) {
    var page = l.parentNode.querySelector(":scope > a");
    return titleText(l) || (page ? filled(say, { level: titleText(page) }) : "");
  }

  function openNames(nav) {
    var say = word("menu_open");
    if (!say || !nav) return;
    Array.prototype.forEach.call(nav.querySelectorAll("label[for^='__nav']:not([aria-label]), label[for='__toc']:not([aria-label])"), function (l) {
      var name = labelName(l, say);
      if (name) l.setAttribute("aria-label", name);
    });
  }

  function drawer() {
    var toggle = document.getElementById("__drawer"), label = document.querySelector('.md-header label[for="__drawer"]');
    var nav = document.querySelector(".md-sidebar--primary nav");
    if (!toggle || !label || !nav) return;
    var button = el("button", "md-header__button md-icon kb-menu");
    button.type = "button";
    button.setAttribute("aria-label", nav.getAttribute("aria-label") || "Menu");
    Array.prototype.forEach.call(label.childNodes, function (n) { button.appendChild(n.cloneNode(true)); });  /* the theme's icon */
    label.parentNode.insertBefore(button, label);
    label.hidden = true;
    keyLabels(nav, button);
    function expanded() { button.setAttribute("aria-expanded", toggle.checked ? "true" : "false"); }
    expanded();
    toggle.addEventListener("change", function () {
      expanded();
      if (!toggle.checked && nav.contains(document.activeElement)) button.focus();  /* closed with the focus in it */
    });
    var scrim = document.querySelector('label.md-overlay[for="__drawer"]');  /* a tap on it leaves the focus where it is */
    if (scrim) scrim.addEventListener("mousedown", function (ev) { ev.preventDefault(); });
    button.addEventListener("click", function (ev) {
      toggle.click();
      var first = toggle.checked && ev.detail === 0 && firstStop(nav);  /* by a key: into the drawer */
      if (first) first.focus();
    });
    document.addEventListener("keydown", function (ev) {
      if (!toggle.checked || !button.offsetParent) return;
      if (ev.key === "Tab") return roundTab(ev, nav);
      if (ev.key !== "Escape") return;
      toggle.click();
      button.focus();
    });
  }

  /* ---------------------------------------------------------------- the focus in sight, under what sticks at the top */
  /* The browser scrolls a focused element only just into the screen: Shift+Tab left it under the sticky header, a
   * long form's sticky answer line (.kb-calc-brief) or the theme's "back to top" button (audit-a11y H3). Once it has
   * scrolled, an element of the page that Tab or Shift+Tab focused and that starts above the lowest of those it lies
   * under is brought below it. */
  var STUCK = ".md-header, .kb-calc-brief, .md-top";

  function coverBottom(target, r) {
    var bottom = 0;
    Array.prototype.forEach.call(document.querySelectorAll(STUCK), function (e) {
      var c = e.getBoundingClientRect(), pos = getComputedStyle(e).position;
      if (e.contains(target) || e.hidden || !c.height || (pos !== "sticky" && pos !== "fixed")) return;
      if (c.top <= bottom + 1 && c.left < r.right && c.right > r.left) bottom = Math.max(bottom, c.bottom);
    });
    return bottom;
  }

  var tabbedAt = 0;  /* when Tab was last pressed: only its focus is seen to (a script's own, a stepper's, scrolls itself) */

  function keepFocusInSight(ev) {
    var target = ev.target;
    if (Date.now() - tabbedAt > 500 || !target.closest || !target.closest(".md-content, .md-footer")) return;
    window.requestAnimationFrame(function () {
      var r = target.getBoundingClientRect(), bottom = coverBottom(target, r);
      if (r.height && r.top < bottom) window.scrollBy(0, r.top - bottom - 8);
    });
  }

  /* ---------------------------------------------------------------- the data, after the page */
  function whenIdle(fn) {
    function go() { if (window.requestIdleCallback) window.requestIdleCallback(fn, { timeout: 1000 }); else window.setTimeout(fn, 1); }
    if (document.readyState === "complete") go();
    else window.addEventListener("load", go, { once: true });
  }

  function loadData(done) {  /* <script src>, not fetch: pages opened from file:// read them too */
    var meta = document.querySelector('meta[name="kb-table"]');
    var urls = meta ? (meta.getAttribute("content") || "").split(" ").filter(Boolean) : [];
    var left = urls.length;
    if (!left) return done();
    urls.forEach(function (u) {
      var s = document.createElement("script");
      s.src = u;
      s.async = false;  /* run in order: the words first */
      s.onload = s.onerror = function () { if (--left === 0) done(); };
      document.head.appendChild(s);
    });
  }

  function init() {  /* <html data-kb-table="ready"> once the helpers are on the page (the browser tests wait for it) */
    switcher();
    languageMenu();
    drawer();
    var article = document.querySelector("article.md-content__inner");
    if (article) namePermalinks(article);
    whenIdle(function () {
      loadData(function () {
        backNames(document.querySelector(".md-sidebar--primary nav"));
        openNames(document.querySelector(".md-sidebar--primary nav"));
        var done = function () { document.documentElement.setAttribute("data-kb-table", "ready"); };
        if (article) inTurn(start(article), done); else done();
      });
    });
  }

  /* Run ``steps`` one per idle period, so that no one long task holds up a key press or the search (issue 29). */
  function inTurn(steps, done) {
    var i = 0;
    (function next() {
      if (i >= steps.length) return done();
      steps[i++]();
      if (window.requestIdleCallback) window.requestIdleCallback(next, { timeout: 500 }); else window.setTimeout(next, 1);
    })();
  }

  function start(article) {
    data = window.KB_TABLE || null;
    (data ? window.KB_TABLE_PARTS || [] : []).forEach(function (part) {  /* the page's game(s): kb/site/preview.py */
      Object.keys(part.entries).forEach(function (k) { data.entries[k] = part.entries[k]; });
      Object.keys(part.terms).forEach(function (g) { data.terms[g] = part.terms[g]; });
    });
    status = el("div", "kb-status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    document.body.appendChild(status);
    var steps = [function () { numberParagraphs(article); }];
    if (!data) return steps;
    root = findRoot();
    tip = el("div", "kb-tip");
    tip.id = "kb-tip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    card = el("div", "kb-tip kb-card");
    card.id = "kb-card";
    card.setAttribute("role", "tooltip");
    card.hidden = true;
    [tip, card].forEach(function (b) {
      b.addEventListener("pointerenter", function () { window.clearTimeout(hideTimer); });
      b.addEventListener("pointerleave", function (ev) { if (ev.pointerType !== "touch") later(); });
      document.body.appendChild(b);
    });
    document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") hideAll(); });
    document.addEventListener("click", function (ev) {  /* a tap elsewhere hides a tapped tip */
      if (!ev.target.closest || !ev.target.closest(".kb-term, .kb-tip")) hideAll();
    });
    return steps.concat([
      function () { previews(article); },
      function () { tooltips(article); },
      function () {
        glossaryFilter(article);
        if (location.hash) {
          var target = document.getElementById(hashId());
          if (target) target.scrollIntoView();
        }
      }
    ]);
  }

  /* ---------------------------------------------------------------- cut-off names in the menu, contents, header, footer */
  /* The theme's own tooltips (Material's content.tooltips) are off: they copy an item's text in as markup, so an
   * escaped "<svg/onload=...>" in a title would run. Here a cut-off item shows its whole name as a title attribute,
   * set from textContent: the browser shows it as text, never parses it. */
  var CUT = ".md-nav__link, .md-ellipsis, .md-header__topic, .md-footer__title, .md-footer__direction, .md-tabs__link";

  function fullName(ev) {
    var e = ev.target && ev.target.closest ? ev.target.closest(CUT) : null;
    if (!e || e.hasAttribute("title")) return;
    var text = (e.textContent || "").replace(/\s+/g, " ").trim();
    if (text && e.scrollWidth > e.clientWidth) e.setAttribute("title", text);
  }

  document.addEventListener("pointerover", fullName);
  document.addEventListener("focusin", fullName);
  document.addEventListener("keydown", function (ev) { if (ev.key === "Tab") tabbedAt = Date.now(); }, true);
  document.addEventListener("focusin", keepFocusInSight);

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
