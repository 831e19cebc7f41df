/* The light/dark toggle (docs/site.md, "A first visit on a phone"): Material's palette form in the header,
 * <form data-kb-palette> (kb.site.app.own_palette took its data-md-component="palette" away, so the theme's
 * bundle does not mount it). Material's palette component, on every page load, set data-md-color-switching on
 * <body> and took it off at the next frame, re-wrote the body's colour attributes and read the header's computed
 * style: two or three styles of the whole page recomputed, 0.2 s at 4x CPU on a rule page (issue 29). The
 * colours a reader chose are already on <body> before the first paint (the theme's inline script reads them from
 * localStorage, "__palette"); this script only shows the toggle's label for the scheme in use and, when the reader
 * switches, does what the theme's component did: the body's data-md-color-* attributes, the choice kept under
 * "__palette" for the next pages, the toggle's other icon. On a first visit the scheme follows the system's
 * setting (the first palette whose media matches), as the theme's did. The toggle is a button (show()): a tap,
 * Enter or Space switches. The
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

  /* The theme's radio pair told a screen reader the opposite of the page («Modo oscuro, seleccionado» on a light page:
   * each radio is named by the palette it switches to; audit-a11y M7), its icon an unnamed image between them: one
   * button stands for them, named as the first palette's toggle («Modo oscuro» / "Dark mode") and pressed while
   * another palette (dark) is on, with the icon and title of the label the theme shows. The pair stays, hidden. */
  var button = document.createElement("button");
  button.type = "button";
  button.className = "md-header__button md-icon kb-palette";
  button.setAttribute("aria-label", inputs[0].getAttribute("aria-label") || "");
  form.appendChild(button);
  inputs.forEach(function (input) {
    input.tabIndex = -1;
    input.setAttribute("aria-hidden", "true");
  });

  function show(index) {
    var shown = null;
    inputs.forEach(function (input, i) {
      var label = input.nextElementSibling;
      if (!label || label.tagName !== "LABEL") return;
      label.hidden = true;
      if (i === index) shown = label;
    });
    inputs[index].checked = true;
    button.textContent = "";
    if (shown) {
      button.title = shown.title;
      Array.prototype.forEach.call(shown.childNodes, function (n) { button.appendChild(n.cloneNode(true)); });
    }
    var icon = button.querySelector("svg");
    if (icon) icon.setAttribute("aria-hidden", "true");
    button.setAttribute("aria-pressed", index !== 0 ? "true" : "false");
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

  button.addEventListener("click", function () {  /* a tap, Enter or Space: the next palette */
    at = (at + 1) % inputs.length;
    choose(at);
  });
})();
