/* The stepper of a sequence's page (docs/site.md, "Stepper"): the element data-kb-stepper="<sequence id>"
 * holds the sequence's steps as the page's ordered list (readable as it is without scripts). This script
 * shows them one at a time: the step's number as the rulebook prints it (data-kb-number on its mark), its
 * title, what the active player may do now and its links, with buttons data-kb-step="back" / "next",
 * the arrow keys (and Home / End) while the stepper has the focus, and a swipe on touch screens. The
 * step is announced through an aria-live line. The buttons come first, above the step, so that they stay in one place
 * whatever the step's length; a step the reader moves to is named in the address (#step-<id>). A link to a step (#step-<id>: a search result, the game
 * page's list) opens the stepper at that step, brings it into view below the header (the browser scrolled
 * to the list the stepper hides) and marks it as the search marks a passage; the focus goes to it unless
 * the reader is typing or in a dialog. Opened by the language switcher at a paragraph, not a step, the stepper shows the
 * step the other language's page showed (carried()). The words come from data-kb-words (the gettext catalog);
 * the step's content is a copy of the page's own markup; nothing is built from text with innerHTML. */
(function () {
  "use strict";

  /* The id the URL's fragment names ("" for none): a malformed percent-escape in it (a hand-made "#%E0%A4%A") names
   * nothing, rather than throwing and stopping this script part-way. */
  function hashId() {
    try { return decodeURIComponent(location.hash.slice(1)); } catch (e) { return ""; }
  }

  function words(box) {
    try { return JSON.parse(box.getAttribute("data-kb-words") || "{}"); } catch (e) { return {}; }
  }

  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (m, k) {
      return Object.prototype.hasOwnProperty.call(values, k) ? values[k] : m;  /* "{constructor}" is text, not Object */
    });
  }

  /* The step's own block (its list item or, unnumbered, its paragraph), without its sub-steps. */
  function content(mark) {
    var block = mark.closest("li, p") || mark.parentNode;
    var copy = block.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll("ol, ul"), function (list) {
      if (list.querySelector("[data-kb-number], span[id^='step-']")) list.remove();
    });
    Array.prototype.forEach.call(copy.querySelectorAll(".kb-cite-btn"), function (b) { b.remove(); });
    Array.prototype.forEach.call(copy.querySelectorAll("[id]"), function (el) { el.removeAttribute("id"); });
    copy.removeAttribute("id");
    var out = document.createElement("div");
    out.className = "kb-stepper__body";
    while (copy.firstChild) out.appendChild(copy.firstChild);
    return out;
  }

  function button(kind, text, arrow) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "md-button kb-stepper__button";
    b.setAttribute("data-kb-step", kind);
    var mark = document.createElement("span");  /* the arrow is for the eye: a voice read "flecha izquierda Anterior" */
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = arrow;
    var name = document.createTextNode(text);
    if (kind === "back") { b.appendChild(mark); b.appendChild(document.createTextNode(" ")); b.appendChild(name); }
    else { b.appendChild(name); b.appendChild(document.createTextNode(" ")); b.appendChild(mark); }
    return b;
  }

  function setUp(box) {
    var marks = Array.prototype.slice.call(box.querySelectorAll("span[id^='step-']"));
    if (!marks.length || box.querySelector(".kb-stepper__ui")) return;
    var w = words(box);
    var ui = document.createElement("div");
    ui.className = "kb-stepper__ui";
    ui.setAttribute("role", "group");
    ui.setAttribute("aria-label", w.stepper || "");
    var status = document.createElement("p");
    status.className = "kb-stepper__status";
    status.setAttribute("aria-live", "polite");
    status.setAttribute("aria-atomic", "true");
    var panel = document.createElement("div");
    panel.className = "kb-stepper__panel";
    panel.tabIndex = 0;
    var nav = document.createElement("div");
    nav.className = "kb-stepper__nav";
    var back = button("back", w.previous || "", "\u2190"), next = button("next", w.next || "", "\u2192");
    nav.appendChild(back);
    nav.appendChild(next);
    ui.appendChild(nav);  /* above the step: its place does not depend on the step's length (a thumb taps it again) */
    ui.appendChild(status);
    ui.appendChild(panel);
    var at = -1, landed = -1;  /* the step shown, the step a link (the URL's #step-…) opened */

    function show(i) {
      i = Math.max(0, Math.min(marks.length - 1, i));
      panel.classList.toggle("kb-stepper__panel--landed", i === landed);
      if (i === at) return;
      at = i;
      var mark = marks[i], number = mark.getAttribute("data-kb-number");
      var title = (mark.nextElementSibling && mark.nextElementSibling.textContent) || "";
      var where = fill(w.step_position, { index: i + 1, count: marks.length });
      var said = document.createElement("span");  /* the title, for screen readers: the panel shows it */
      said.className = "kb-stepper__sr";
      said.textContent = title ? ": " + title : "";
      status.textContent = (number ? fill(w.step_number, { number: number }) + " \u00b7 " : "") + where;
      status.appendChild(said);
      box.setAttribute("data-kb-stepper-at", mark.id.replace(/^step-/, ""));
      panel.replaceChildren(content(mark));
      back.setAttribute("aria-disabled", String(i === 0));
      next.setAttribute("aria-disabled", String(i === marks.length - 1));
    }

    /* The reader's move: the step shown, and named in the address (#step-<id>, no new history entry, no scroll), so that
     * the language switcher (which carries the #anchor), a reload and a shared link open the stepper at that step. */
    function move(i) {
      show(i);
      var hash = "#" + marks[at].id;
      if (location.hash !== hash) history.replaceState(history.state, "", hash);
    }

    back.addEventListener("click", function () { move(at - 1); });
    next.addEventListener("click", function () { move(at + 1); });
    ui.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
                 Home: 0, End: marks.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      move(to);
    });
    var startX = null, startY = null;
    panel.addEventListener("touchstart", function (e) {
      if (e.touches.length !== 1) { startX = null; return; }
      startX = e.touches[0].clientX;
      startY = e.touches[0].clientY;
    }, { passive: true });
    panel.addEventListener("touchend", function (e) {
      if (startX === null || !e.changedTouches.length) return;
      var dx = e.changedTouches[0].clientX - startX, dy = e.changedTouches[0].clientY - startY;
      startX = null;
      if (Math.abs(dx) > 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) move(dx < 0 ? at + 1 : at - 1);
    }, { passive: true });

    /* The step the URL names, shown and brought into view: at once on arriving (as the browser's own jump to an
     * anchor), smoothly on a change of the hash unless the reader asks for less motion. */
    function fromHash(ev) {
      var id = hashId();
      var found = marks.findIndex(function (m) { return m.id === id; });
      if (found < 0) return false;
      landed = found;
      show(found);
      var still = !ev || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      ui.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });  /* kb.css: below the header */
      var had = document.activeElement;  /* the search dialog may be open (the loader replays its keys first) */
      if (!had || !(had.closest("[role='dialog']") || had.matches("input, select, textarea, [contenteditable]")))
        panel.focus({ preventScroll: true });
      return true;
    }
    box.insertBefore(ui, box.firstChild);
    box.classList.add("kb-stepper--on");
    if (!fromHash()) show(carried(box, marks));
    window.addEventListener("hashchange", fromHash);
    keepHash(ui, function () { return landed >= 0 && at === landed ? marks[landed].id : null; });
  }

  /* The theme's navigation.tracking rewrites the address after a scroll to the heading in view (no hash above the
   * first heading): a link to a step lost its #step-… from the address once the stepper had been brought into view
   * (phone audit 3, D4). Once scrolling stops (after the theme's own rewrite), the step's hash is put back while the
   * landed step is shown and the stepper is in view. */
  function keepHash(ui, step) {
    var timer = null;
    window.addEventListener("scroll", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var id = step(), r = ui.getBoundingClientRect();
        if (!id || hashId() === id || r.bottom <= 0 || r.top >= window.innerHeight) return;
        try { history.replaceState(history.state, "", "#" + encodeURIComponent(id)); } catch (e) { /* file:// */ }
      }, 800);
    }, { passive: true });
  }

  /* The step the language switcher carried from the other language's page (kb-table.js, carrySteps: sessionStorage
   * "kb-step", this page's path and each sequence's step), else the first: the switcher may land on the paragraph the
   * reader was reading, below the stepper, and the step they were on is kept. */
  function carried(box, marks) {
    var kept = null;
    try { kept = JSON.parse(sessionStorage.getItem("kb-step") || "null"); } catch (e) { return 0; }
    if (!kept || kept.page !== location.pathname || !kept.steps) return 0;
    var id = "step-" + kept.steps[box.getAttribute("data-kb-stepper")];
    return Math.max(0, marks.findIndex(function (m) { return m.id === id; }));
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-kb-stepper]"), setUp);
    try { sessionStorage.removeItem("kb-step"); } catch (e) { /* storage off */ }  /* once: this page's load */
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
