/* The light/dark toggle (docs/site.md, "A first visit on a phone"): Material's palette form in the header,
 * <form data-kb-palette> (kb.site.app.own_palette took its data-md-component="palette" away, so the theme's
 * bundle does not mount it). Material's palette component, on every page load, set data-md-color-switching on
 * <body> and took it off at the next frame, re-wrote the body's colour attributes and read the header's computed
 * style: two or three styles of the whole page recomputed, 0.2 s at 4x CPU on a rule page (issue 29). The
 * colours a reader chose are already on <body> before the first paint (the theme's inline script reads them from
 * localStorage, "__palette"); this script only shows the toggle's label for the scheme in use and, when the reader
 * switches, does what the theme's component did: the body's data-md-color-* attributes, the choice kept under
 * "__palette" for the next pages, the toggle's other label. On a first visit the scheme follows the system's
 * setting (the first palette whose media matches), as the theme's did. Enter or Space on the toggle switches too. The
 * choice holds in every language: each build's storage scope is the site's root (kb.mkdocs_plugin._site_scope). */
(function () {
  "use strict";

  var form = document.querySelector("form[data-kb-palette]");
  if (!form || !document.body) return;
  var inputs = Array.prototype.slice.call(form.querySelectorAll("input[name='__palette']"));
  if (!inputs.length) return;
  var KEYS = ["media", "scheme", "primary", "accent"];

  function stored() {
    try { return window.__md_get ? window.__md_get("__palette") : null; } catch (e) { return null; }
  }

  function matches(media) {
    try { return !!media && window.matchMedia(media).matches; } catch (e) { return false; }
  }

  /* The palette in use: the kept choice, else the first whose media the system matches, else the first. */
  function current() {
    var kept = stored();
    if (kept && typeof kept.index === "number" && inputs[kept.index]) return kept.index;
    var i = inputs.findIndex(function (input) { return matches(input.getAttribute("data-md-color-media")); });
    return i >= 0 ? i : 0;
  }

  function show(index) {
    inputs.forEach(function (input, i) {
      var label = input.nextElementSibling;
      if (label && label.tagName === "LABEL") label.hidden = i !== index;
    });
    inputs[index].checked = true;
  }

  /* The body's colours as the palette says; an attribute already right is not written (no style recomputed). */
  function apply(index) {
    var input = inputs[index], color = {};
    KEYS.forEach(function (key) {
      var value = input.getAttribute("data-md-color-" + key);
      if (value === null) return;
      color[key] = value;
      if (document.body.getAttribute("data-md-color-" + key) !== value) document.body.setAttribute("data-md-color-" + key, value);
    });
    return color;
  }

  function choose(index) {
    var color = apply(index);
    show(index);
    if (window.__md_set) window.__md_set("__palette", { index: index, color: color });
  }

  var at = current();
  if (!stored()) apply(at);  /* a first visit: the system's scheme (the page was written in the first palette's) */
  show(at);

  form.addEventListener("change", function (ev) {
    var i = inputs.indexOf(ev.target);
    if (i >= 0) { at = i; choose(i); }
  });
  form.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " ") return;  /* a button's keys: the radio pair took Space for nothing */
    ev.preventDefault();
    var next = (at + 1) % inputs.length;
    inputs[next].click();
    inputs[next].focus();
  });
})();
