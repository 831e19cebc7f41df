/* Calculators (docs/site.md, "Calculators and odds tables"). Loaded only by pages that hold a
 * <form data-kb-resolver>. The answers are the Python resolver's, computed at build time for every
 * combination of the form's fields (kb/mechanics/space.py, kb/site/calc.py) and read from the data
 * script named by the form's data-kb-data (a <script src>, so pages opened from file:// can read it).
 * This script holds no rule: it turns each field's value into its position among the values the
 * resolver declares, the positions into the combination's number (mixed radix, first field most
 * significant), and shows the outcome stored there. Text from the data is set with textContent only. */
(function () {
  "use strict";

  var pending = {};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (m, k) {
      return Object.prototype.hasOwnProperty.call(values, k) ? values[k] : m;
    });
  }

  function loadData(form, done) {
    var key = form.getAttribute("data-kb-file");
    var all = window.KB_CALC || {};
    if (all[key]) { done(all[key]); return; }
    if (pending[key]) { pending[key].push(done); return; }
    pending[key] = [done];
    var s = document.createElement("script");
    function finish() {
      var data = (window.KB_CALC || {})[key] || null, waiting = pending[key] || [];
      delete pending[key];
      waiting.forEach(function (f) { f(data); });
    }
    s.onload = finish;
    s.onerror = finish;
    s.src = form.getAttribute("data-kb-data");
    document.head.appendChild(s);
  }

  /* The position of a field's value among its values, or the message saying why there is none. */
  function position(field, input, data) {
    var S = data.strings, words = data.words, label = S[field.label];
    var off = field.optional ? 1 : 0;
    if (field.kind === "integer" || field.kind === "number") {
      var raw = String(input.value).trim();
      var bad = input.validity && input.validity.badInput;
      if (raw === "" && !bad) {
        return field.optional ? { pos: 0 } : { error: fill(words.calc_needs_value, { label: label }) };
      }
      var v = Number(raw), k = (v - field.min) / field.step, r = Math.round(k);
      if (bad || !isFinite(v) || Math.abs(k - r) > 1e-9 || r < 0 || r > field.n - 1 - off) {
        return { error: fill(words.calc_out_of_range, { label: label, value: bad ? "?" : raw, range: S[field.range] }) };
      }
      return { pos: r + off };
    }
    var i = field.values.indexOf(input.value);
    if (i < 0) return { error: fill(words.calc_out_of_range, { label: label, value: input.value, range: "" }) };
    return { pos: i };
  }

  function numberOf(fields, pos) {
    var n = 0;
    for (var i = 0; i < fields.length; i++) n = n * fields[i].n + pos[i];
    return n;
  }

  function showOutcome(box, o, data) {
    var S = data.strings;
    box.setAttribute("data-kb-outcome", S[o[0]]);
    if (o[4] != null) {
      box.appendChild(el("p", "kb-calc-refusal", S[o[4]]));
      return;
    }
    var dl = el("dl", "kb-calc-outputs");
    o[2].forEach(function (pair) { dl.appendChild(el("dt", null, S[pair[0]])); dl.appendChild(el("dd", null, S[pair[1]])); });
    box.appendChild(dl);
    if (o[3]) box.appendChild(el("p", "kb-calc-odds", S[o[3][0]]));
    if (o[1].length) {
      box.appendChild(el("p", "kb-calc-steps-head", data.words.calc_steps));
      var ol = el("ol", "kb-calc-steps");
      o[1].forEach(function (s) { ol.appendChild(el("li", null, S[s])); });
      box.appendChild(ol);
    }
  }

  /* The chance for each value of the number the odds turn on, the other fields as set. */
  function oddsTable(box, sp, pos, o, data) {
    if (sp.odds == null || !o[3]) return;
    var S = data.strings, f = sp.fields[sp.odds], off = f.optional ? 1 : 0;
    var table = el("table", "kb-calc-odds-table");
    table.appendChild(el("caption", null, fill(data.words.calc_odds_caption, { event: S[o[3][1]], label: S[f.label] })));
    var head = el("tr");
    head.appendChild(el("th", null, S[f.label]));
    head.appendChild(el("th", null, data.words.calc_chance_head));
    head.firstChild.setAttribute("scope", "col");
    head.lastChild.setAttribute("scope", "col");
    var thead = el("thead"), tbody = el("tbody");
    thead.appendChild(head);
    for (var j = off; j < f.n; j++) {
      var p = pos.slice();
      p[sp.odds] = j;
      var other = data.outcomes[sp.index[numberOf(sp.fields, p)]];
      var row = el("tr");
      row.appendChild(el("td", null, S[f.shown[j - off]]));
      row.appendChild(el("td", null, other[3] ? S[other[3][2]] : "—"));
      if (j === pos[sp.odds]) {
        row.className = "kb-calc-current";
        row.setAttribute("aria-current", "true");
      }
      tbody.appendChild(row);
    }
    table.appendChild(thead);
    table.appendChild(tbody);
    box.appendChild(table);
  }

  function update(form, data) {
    var box = form.querySelector("[data-kb-outcome]");
    var sp = data && data.spaces[form.getAttribute("data-kb-space")];
    if (!box) return;
    if (!sp) {
      box.textContent = "";
      box.appendChild(el("p", "kb-calc-message", (data && data.words.calc_unreadable) || "…")).setAttribute("role", "alert");
      return;
    }
    var pos = [], problems = [], first = null;
    form.querySelectorAll("[data-kb-field]").forEach(function (input) {
      var i = Number(input.getAttribute("data-kb-field")), r = position(sp.fields[i], input, data);
      if (r.error) {
        input.setAttribute("aria-invalid", "true");
        problems.push(r.error);
        if (first === null) first = sp.fields[i].name;
      } else {
        input.removeAttribute("aria-invalid");
        pos[i] = r.pos;
      }
    });
    box.textContent = "";
    if (problems.length) {
      box.setAttribute("data-kb-outcome", JSON.stringify({ error: "input-out-of-range", input: first }));
      var msg = el("p", "kb-calc-message", problems.join(" "));
      msg.setAttribute("role", "alert");
      box.appendChild(msg);
      return;
    }
    var o = data.outcomes[sp.index[numberOf(sp.fields, pos)]];
    showOutcome(box, o, data);
    oddsTable(box, sp, pos, o, data);
  }

  function start(form) {
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    loadData(form, function (data) {
      var run = function () { update(form, data); };
      form.addEventListener("input", run);
      form.addEventListener("change", run);
      run();
      form.setAttribute("data-kb-ready", "true");
    });
  }

  function init() { document.querySelectorAll("form[data-kb-resolver]").forEach(start); }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
