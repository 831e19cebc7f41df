/* Calculators (docs/site.md, "Calculators and odds tables"). Loaded only by pages that hold a
 * <form data-kb-resolver>. The answers are the Python resolver's, computed at build time for every
 * combination of the form's fields (kb/mechanics/space.py, kb/site/calc.py) and read from the data
 * scripts beside the page (a <script src>, so pages opened from file:// can read them): the form's
 * data-kb-data names the space's head (its fields, in numbering order, and the shard size); the answers
 * of each run of `shard` consecutive combinations are in their own shard (HEAD-<n>.js), loaded only
 * when the inputs reach it. This script holds no rule: it turns each field's value into its position
 * among the values the resolver declares, the positions into the combination's number (mixed radix,
 * first field most significant), and shows the outcome stored there. Text from the data is set with
 * textContent only. While a shard loads the form carries data-kb-busy. */
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

  /* Runs done(data) once the script that sets KB_CALC[key] has run (null if it cannot be read). */
  function load(key, src, done) {
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
    s.src = src;
    document.head.appendChild(s);
  }

  function shardName(name, n) { return name.replace(/\.js$/, "-" + n + ".js"); }

  /* A number field is a text field (kb/site/calc.py): type="number" drops a decimal comma in Chromium («0,5» read as 5).
   * Its text is read with the page's decimal mark (data-kb-mark); a Spanish page takes a point too, unless it is
   * followed by exactly three digits (1.000 is a thousand there: refused, never read as 1). Anything else (a grouped
   * number, letters, two marks, an exponent) is null: refused, the text quoted. */
  function parse(text, mark) {
    var m = /^([+\-\u2212]?)(\d*)(?:([.,])(\d*))?$/.exec(text);
    if (!m || m[2] + (m[4] || "") === "") return null;
    if (m[3] && m[3] !== mark && (mark === "." || (m[4].length === 3 && /[1-9]/.test(m[2])))) return null;
    var v = Number((m[2] || "0") + "." + (m[4] || "0"));
    return m[1] === "-" || m[1] === "\u2212" ? -v : v;
  }

  /* A number as the page writes it, as typed: no grouping, the page's decimal mark. */
  function typed(v, mark) { return String(v).replace(".", mark); }

  /* The position of a field's value among its values, or the message saying why there is none. */
  function position(field, input, head) {
    var words = head.words, label = field.label;
    if (field.item && input.disabled) return { pos: 0 };  /* an item not added: its first value, absent */
    var off = field.optional || field.item ? 1 : 0;
    if (field.kind === "integer" || field.kind === "number") {
      var raw = String(input.value).trim(), mark = input.getAttribute("data-kb-mark") || ".";
      if (raw === "") {
        return field.optional ? { pos: 0 } : { error: fill(words.calc_needs_value, { label: label }) };
      }
      var v = parse(raw, mark);
      if (v === null || !isFinite(v)) {
        return { error: fill(input.getAttribute("data-kb-nan") || words.calc_out_of_range, { label: label, value: raw, range: field.range }) };
      }
      var k = (v - field.min) / field.step, r = Math.round(k), said = { label: label, value: typed(v, mark), range: field.range };
      if (r < 0 || r > field.n - 1 - off) return { error: fill(words.calc_out_of_range, said) };
      if (Math.abs(k - r) > 1e-9) {  /* between two of its values: a whole-number field says so */
        return { error: fill(field.kind === "integer" && input.getAttribute("data-kb-whole") || words.calc_out_of_range, said) };
      }
      return { pos: r + off };
    }
    var i = field.values.indexOf(input.value);
    if (i < 0) return { error: fill(words.calc_out_of_range, { label: label, value: input.value, range: "" }) };
    return { pos: i + (field.item ? 1 : 0) };
  }

  function numberOf(fields, pos) {
    var n = 0;
    for (var i = 0; i < fields.length; i++) n = n * fields[i].n + pos[i];
    return n;
  }

  function showOutcome(box, o, shard, words) {
    var S = shard.strings;
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
      box.appendChild(el("p", "kb-calc-steps-head", words.calc_steps));
      var ol = el("ol", "kb-calc-steps");
      o[1].forEach(function (s) { ol.appendChild(el("li", null, S[s])); });
      box.appendChild(ol);
    }
  }

  /* The chance for each value of the number the odds turn on, the other fields as set. The odds field is the
   * last in the numbering and a shard holds whole runs of it, so every row is in the shard at hand. */
  function oddsTable(box, head, shard, at, pos, o) {
    if (head.odds == null || !o[3]) return;
    var S = shard.strings, f = head.fields[head.odds], off = f.optional ? 1 : 0;
    var table = el("table", "kb-calc-odds-table");
    table.appendChild(el("caption", null, fill(head.words.calc_odds_caption, { event: S[o[3][1]], label: f.label })));
    var row0 = el("tr");
    row0.appendChild(el("th", null, f.label));
    row0.appendChild(el("th", null, head.words.calc_chance_head));
    row0.firstChild.setAttribute("scope", "col");
    row0.lastChild.setAttribute("scope", "col");
    var thead = el("thead"), tbody = el("tbody");
    thead.appendChild(row0);
    for (var j = off; j < f.n; j++) {
      var other = shard.outcomes[shard.index[at + j]];
      var row = el("tr");
      row.appendChild(el("td", null, f.shown[j - off]));
      row.appendChild(el("td", null, other[3] ? S[other[3][2]] : "—"));
      if (j === pos[head.odds]) {
        row.className = "kb-calc-current";
        row.setAttribute("aria-current", "true");
      }
      tbody.appendChild(row);
    }
    table.appendChild(thead);
    table.appendChild(tbody);
    box.appendChild(table);
  }

  function unreadable(box, head) {
    box.textContent = "";
    box.appendChild(el("p", "kb-calc-message", (head && head.words.calc_unreadable) || "…")).setAttribute("role", "alert");
  }

  function update(form, head) {
    var box = form.querySelector("[data-kb-outcome]");
    if (!box) return;
    if (!head) { unreadable(box, head); return; }
    var pos = [], problems = [], first = null;
    form.querySelectorAll("[data-kb-field]").forEach(function (input) {
      var i = Number(input.getAttribute("data-kb-field")), r = position(head.fields[i], input, head);
      if (r.error) {
        input.setAttribute("aria-invalid", "true");
        problems.push(r.error);
        if (first === null) first = head.fields[i].name;
      } else {
        input.removeAttribute("aria-invalid");
        pos[i] = r.pos;
      }
    });
    if (problems.length) {
      box.textContent = "";
      box.setAttribute("data-kb-outcome", JSON.stringify({ error: "input-out-of-range", input: first }));
      var msg = el("p", "kb-calc-message", problems.join(" "));
      msg.setAttribute("role", "alert");
      box.appendChild(msg);
      form.removeAttribute("data-kb-busy");
      return;
    }
    if (head.py) { inPage(form, head, box, pos); return; }
    var n = numberOf(head.fields, pos), k = Math.floor(n / head.shard), name = shardName(form.getAttribute("data-kb-file"), k);
    var shard = (window.KB_CALC || {})[name];
    if (!shard) {  /* fetch it, then look again: the inputs may have changed meanwhile */
      form.setAttribute("data-kb-busy", "true");
      load(name, shardName(form.getAttribute("data-kb-data"), k), function (data) {
        if (data) update(form, head);
        else { unreadable(box, head); form.removeAttribute("data-kb-busy"); }
      });
      return;
    }
    box.textContent = "";
    var o = shard.outcomes[shard.index[n % head.shard]];
    showOutcome(box, o, shard, head.words);
    oddsTable(box, head, shard, n % head.shard - (head.odds == null ? 0 : pos[head.odds]), pos, o);
    form.removeAttribute("data-kb-busy");
    form.setAttribute("data-kb-ready", "true");
  }

  /* Python in the page (kb/site/calc_py.py under Pyodide, docs/site.md): for a space no build enumerates, the
   * resolver itself answers. The runtime (kb-py/ at the site's root, one copy for every language; data-kb-py says
   * where) is loaded by <script src> on the first change of a value of such a form, never before (not on focus); its wasm, standard library and the engine's bundle come as base64
   * in those scripts and are handed to Pyodide in place of its fetches (which file:// pages cannot make). */
  var runtime = null, runtimeWaiting = null, calcs = {};

  function bytes(b64) {
    var s = atob(b64), a = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
    return a;
  }

  function scripts(base, names, done) {
    if (!names.length) { done(true); return; }
    var s = document.createElement("script");
    s.onload = function () { scripts(base, names.slice(1), done); };
    s.onerror = function () { done(false); };
    s.src = base + names[0];
    document.head.appendChild(s);
  }

  function withRuntime(base, done) {
    if (runtime) { done(runtime); return; }
    if (runtimeWaiting) { runtimeWaiting.push(done); return; }
    runtimeWaiting = [done];
    var finish = function (py) {
      var waiting = runtimeWaiting;
      runtimeWaiting = null;
      runtime = py;
      waiting.forEach(function (f) { f(py); });
    };
    scripts(base, ["kb-py-wasm.js", "kb-py-stdlib.js", "kb-py-lock.js", "kb-py-bundle.js", "pyodide.asm.js", "pyodide.js"], function (ok) {
      if (!ok || typeof window.loadPyodide !== "function") { finish(null); return; }
      var files = window.KB_PY || {}, realFetch = window.fetch;
      window.fetch = function (url) {
        var name = String((url && url.url) || url).split("/").pop();
        var type = { headers: { "Content-Type": /\.wasm$/.test(name) ? "application/wasm" : "application/zip" } };
        if (Object.prototype.hasOwnProperty.call(files, name)) return Promise.resolve(new Response(bytes(files[name]), type));
        if (Object.prototype.hasOwnProperty.call(files, name + ".gz")) {  /* gzipped by the build: undone here */
          var body = new Blob([bytes(files[name + ".gz"])]).stream().pipeThrough(new DecompressionStream("gzip"));
          return Promise.resolve(new Response(body, type));
        }
        return realFetch.apply(this, arguments);
      };
      window.loadPyodide({ indexURL: new URL(base, location.href).href, lockFileContents: window.KB_PY_LOCK, packages: [] })
        .then(function (py) {
          window.fetch = realFetch;
          py.unpackArchive(bytes(files["kb-bundle.zip"]), "zip", { extractDir: "/kb-py" });
          py.runPython("import sys\nsys.path.insert(0, '/kb-py')");
          finish(py.pyimport("kb.site.calc_py"));
        }, function () { window.fetch = realFetch; finish(null); });
    });
  }

  function inPage(form, head, box, pos) {
    form.setAttribute("data-kb-busy", "true");
    box.setAttribute("aria-busy", "true");
    var base = form.getAttribute("data-kb-py");
    withRuntime(base, function (mod) {
      var shard = null;
      try {
        var key = form.getAttribute("data-kb-file");
        if (mod && !calcs[key]) calcs[key] = mod.Calc.load(JSON.stringify(head.py), "/kb-py/games");
        if (mod) shard = JSON.parse(calcs[key].answer(JSON.stringify(pos)));
      } catch (e) { shard = null; }
      box.removeAttribute("aria-busy");
      if (!shard) { unreadable(box, head); form.removeAttribute("data-kb-busy"); return; }
      box.textContent = "";
      var o = shard.outcomes[shard.index[shard.at]];
      showOutcome(box, o, shard, head.words);
      oddsTable(box, head, shard, 0, pos, o);
      form.removeAttribute("data-kb-busy");
    });
  }

  /* Inputs made of items (a list's, a mapping's entries: data-kb-item names the input): "add" shows the first item
   * not added and moves the focus to it, "remove" hides its item and moves the focus to "add"; a hidden item's field
   * is disabled, which the numbering reads as "absent". The answer follows through the form's change event. */
  function items(form) {
    function adders(group) { return form.querySelectorAll('[data-kb-add="' + group + '"]'); }
    function refresh(group) {
      var left = form.querySelectorAll('[data-kb-item="' + group + '"][hidden]').length;
      adders(group).forEach(function (b) { b.disabled = left === 0; });
    }
    function changed() { form.dispatchEvent(new Event("change")); }
    form.addEventListener("click", function (e) {
      var add = e.target.closest && e.target.closest("[data-kb-add]");
      var remove = e.target.closest && e.target.closest("[data-kb-remove]");
      if (add) {
        var group = add.getAttribute("data-kb-add"), box = form.querySelector('[data-kb-item="' + group + '"][hidden]');
        if (!box) return;
        var input = box.querySelector("[data-kb-field]");
        box.hidden = false;
        input.disabled = false;
        if (input.tagName !== "SELECT" && input.value === "") input.value = typed(Number(input.getAttribute("data-kb-min")), input.getAttribute("data-kb-mark") || ".");
        refresh(group);
        input.focus();
        changed(input);
      } else if (remove) {
        var item = remove.closest("[data-kb-item]"), field = item.querySelector("[data-kb-field]"), name = item.getAttribute("data-kb-item");
        item.hidden = true;
        field.disabled = true;
        refresh(name);
        var back = adders(name)[0];
        if (back) back.focus();
        changed(field);
      }
    });
    var seen = {};
    form.querySelectorAll("[data-kb-add]").forEach(function (b) { seen[b.getAttribute("data-kb-add")] = true; });
    Object.keys(seen).forEach(refresh);
  }

  function start(form) {
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    items(form);
    load(form.getAttribute("data-kb-file"), form.getAttribute("data-kb-data"), function (head) {
      var run = function () { update(form, head); };
      form.addEventListener("input", run);
      form.addEventListener("change", run);
      if (head && head.py) {  /* the build's answer stands until a value changes: only then does the runtime (9 MB)
        load, never on focus, so tabbing through the page on a poor connection costs nothing */
        form.setAttribute("data-kb-ready", "true");
      } else run();
    });
  }

  function init() { document.querySelectorAll("form[data-kb-resolver]").forEach(start); }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
