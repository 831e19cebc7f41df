/* Calculators (docs/site.md, "Calculators and odds tables"). Loaded only by pages that hold a
 * <form data-kb-resolver>. The answers are the Python resolver's, computed at build time for every
 * combination of the form's fields (kb/mechanics/space.py, kb/site/calc.py) and read from the data
 * scripts beside the page (a <script src>, so pages opened from file:// can read them): the form's
 * data-kb-data names the space's head (its fields, in numbering order, and the shard size); the answers
 * of each run of `shard` consecutive combinations are in their own shard (HEAD-<n>.js), loaded only
 * when the inputs reach it. This script holds no rule: it turns each field's value into its position
 * among the values the resolver declares, the positions into the combination's number (mixed radix,
 * first field most significant), and shows the outcome stored there. Text from the data is set with
 * textContent only. While a shard loads the form carries data-kb-busy (see wait()). */
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
      /* a range of the calculator's own (field.covers: the rule sets none) is not called the rule's */
      var outside = field.covers && words.calc_out_of_coverage || words.calc_out_of_range;
      if (r < 0 || r > field.n - 1 - off) return { error: fill(outside, said) };
      if (Math.abs(k - r) > 1e-9) {  /* between two of its values: a whole-number field says so */
        return { error: fill(field.kind === "integer" && input.getAttribute("data-kb-whole") || outside, said) };
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

  /* The words of another language the form's steps may show (data-kb-foreign, kb/site/calc.py: foreign_words), as
   * [[word, lang]], longest first; [] when it has none or cannot be read. */
  function foreignOf(box) {
    var form = box.closest("form"), raw = form && form.getAttribute("data-kb-foreign"), out = [];
    try {
      var by = raw ? JSON.parse(raw) : {};
      Object.keys(by).forEach(function (lang) { by[lang].forEach(function (w) { if (w) out.push([String(w), lang]); }); });
    } catch (e) { return []; }
    return out.sort(function (a, b) { return b[0].length - a[0].length; });
  }

  /* ``parent`` holding ``text``, each whole word of ``foreign`` in it in a <span lang> of its language (a screen reader
   * says «Roll-Off» in English on a Spanish page), as calc.py's marked_html. Text nodes only: nothing is markup. */
  function marked(parent, text, foreign) {
    if (!foreign.length) { parent.textContent = text; return parent; }
    var langs = {}, alts = foreign.map(function (p) {
      langs[p[0]] = p[1];
      return p[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    });
    var parts = String(text).split(new RegExp("(?<![\\p{L}\\p{N}])(" + alts.join("|") + ")(?![\\p{L}\\p{N}])", "u"));
    parts.forEach(function (part, i) {
      if (i % 2) parent.appendChild(el("span", null, part)).setAttribute("lang", langs[part]);
      else if (part) parent.appendChild(document.createTextNode(part));
    });
    return parent;
  }

  function showOutcome(box, o, shard, words) {
    var S = shard.strings, foreign = foreignOf(box);
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
      o[1].forEach(function (s) { ol.appendChild(marked(el("li"), S[s], foreign)); });
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
    var thead = el("thead"), tbody = el("tbody"), dash = false;
    thead.appendChild(row0);
    for (var j = off; j < f.n; j++) {
      var other = shard.outcomes[shard.index[at + j]];
      var row = el("tr");
      if (!other[3]) dash = true;
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
    /* a dash is a value the other fields as typed give no answer for: say so under the table */
    if (dash) box.appendChild(el("p", "kb-calc-odds-note", head.words.calc_odds_dash));
  }

  /* The answer shown no longer matches the fields (a value changed) and the new one is not known yet: the form carries
   * data-kb-busy, which hides the old answer at once (kb.css: never readable beside the new numbers) and keeps its
   * room; the box's data says so. ``text`` (the runtime loading) replaces it at once; without, the words'
   * calc_working («Calculando…») do if the answer takes more than a moment. The box is aria-live: either is
   * announced politely. settle() ends it; a later change starts it again. */
  var MOMENT = 400;

  function wait(form, box, words, text) {
    clearTimeout(form.kbWait);
    form.setAttribute("data-kb-busy", "true");
    box.setAttribute("data-kb-outcome", JSON.stringify({ waiting: true }));
    var asked = form.kbAsked;
    var say = function (t) {
      if (!form.hasAttribute("data-kb-busy") || form.kbAsked !== asked) return;
      box.textContent = "";
      box.appendChild(el("p", "kb-calc-wait", t));
    };
    if (text) text(say);
    else if (words.calc_working) form.kbWait = setTimeout(function () { say(words.calc_working); }, MOMENT);
  }

  function settle(form) {
    clearTimeout(form.kbWait);
    form.removeAttribute("data-kb-busy");
  }

  function unreadable(box, head) {
    box.textContent = "";
    box.setAttribute("data-kb-outcome", JSON.stringify({ error: "data-unreadable" }));  /* no longer "waiting" */
    box.appendChild(el("p", "kb-calc-message", (head && head.words.calc_unreadable) || "…")).setAttribute("role", "alert");
  }

  function update(form, head) {
    var box = form.querySelector("[data-kb-outcome]");
    if (!box) return;
    if (!head) { unreadable(box, head); return; }
    var pos = [], problems = [], first = null;
    form.querySelectorAll("[data-kb-field]").forEach(function (input) {
      var i = Number(input.getAttribute("data-kb-field")), r = position(head.fields[i], input, head);
      flag(input, r.error);
      if (r.error) {
        problems.push(r.error);
        if (first === null) first = head.fields[i].name;
      } else {
        pos[i] = r.pos;
      }
    });
    if (problems.length) {
      box.textContent = "";
      box.setAttribute("data-kb-outcome", JSON.stringify({ error: "input-out-of-range", input: first }));
      box.appendChild(el("p", "kb-calc-message", problems.join(" ")));  /* said by speak(), once the typing settles */
      settle(form);
      forget(form);
      return;
    }
    if (head.py) { inPage(form, head, box, pos); return; }
    var n = numberOf(head.fields, pos), k = Math.floor(n / head.shard), name = shardName(form.getAttribute("data-kb-file"), k);
    var shard = (window.KB_CALC || {})[name];
    if (!shard) {  /* fetch it, then look again: the inputs may have changed meanwhile */
      wait(form, box, head.words);
      load(name, shardName(form.getAttribute("data-kb-data"), k), function (data) {
        if (data) update(form, head);
        else { settle(form); unreadable(box, head); }
      });
      return;
    }
    box.textContent = "";
    var o = shard.outcomes[shard.index[n % head.shard]];
    showOutcome(box, o, shard, head.words);
    oddsTable(box, head, shard, n % head.shard - (head.odds == null ? 0 : pos[head.odds]), pos, o);
    settle(form);
    form.setAttribute("data-kb-ready", "true");
  }

  /* Python in the page (kb/site/calc_py.py under Pyodide, docs/site.md): for a space no build enumerates, the
   * resolver itself answers. Its runtime (kb-py/ at the site's root, one copy for every language; data-kb-py says
   * where) is started on the first change of a value of such a form, never before (not on focus), by
   * kb-calc-worker.js (beside this script) in a dedicated Web Worker, so that a resolver that never ends on the
   * numbers asked cannot freeze the page. One answer is asked at a time, the latest of each form (one it no longer
   * shows is not asked, nor shown), within the head's time limit (seconds: the build's own for the same calls);
   * past it the worker is stopped, the form says calc_too_long (the numbers stay in the fields) and another worker
   * starts for the next try. Until the runtime has started the form says so (calc_loading, with the runtime's size,
   * from the head), then «Calculando…» if an answer takes more than a moment (wait()); a runtime that cannot be read
   * (offline, the game not saved, or saved without "+ full calculators") says calc_no_runtime; one fetched that does not start (a file of it broken, a browser
   * it does not run in) says calc_cannot_start; either way the next change tries again. Where no worker can start
   * (a page opened from file://) the same file is loaded by <script src> and answers on the page's thread, as before
   * this worker: there, nothing stops a resolver. */
  var WORKER = new URL("kb-calc-worker.js", (document.currentScript && document.currentScript.src) || location.href).href;
  var onPage = location.protocol === "file:", worker = null, ready = false, queue = [], current = null, timer = 0, asked = 0;
  var runtime = null, runtimeWaiting = null;

  function scripts(urls, done) {
    if (!urls.length) { done(true); return; }
    var s = document.createElement("script");
    s.onload = function () { scripts(urls.slice(1), done); };
    s.onerror = function () { done(false); };
    s.src = urls[0];
    document.head.appendChild(s);
  }

  /* On the page's thread: done(kb.site.calc_py or null, why: "offline" | "broken") once kb-calc-worker.js and the
   * runtime's scripts ran (a script not fetched: "offline"; fetched but the runtime did not start: "broken"). */
  function withRuntime(base, done) {
    if (runtime) { done(runtime); return; }
    if (runtimeWaiting) { runtimeWaiting.push(done); return; }
    runtimeWaiting = [done];
    var finish = function (mod, why) {
      var waiting = runtimeWaiting;
      runtimeWaiting = null;
      runtime = mod;
      waiting.forEach(function (f) { f(mod, why); });
    };
    scripts([WORKER], function (ok) {
      var run = window.KB_CALC_PY;
      if (!ok || !run) { finish(null, ok ? "broken" : "offline"); return; }
      scripts(run.names.map(function (n) { return base + n; }), function (found) {
        if (found) run.start(base, function (mod) { finish(mod, "broken"); });
        else finish(null, "offline");
      });
    });
  }

  function onThePage(req) {
    withRuntime(req.base, function (mod, why) {
      req.done(mod ? window.KB_CALC_PY.answer(mod, req.key, req.py, req.pos) : null, false, mod ? "" : why);
    });
  }

  function stop() {
    if (worker) worker.terminate();
    worker = null;
    ready = false;
    clearTimeout(timer);
  }

  function startWorker(base) {
    try {
      worker = new Worker(WORKER);
    } catch (e) {  /* refused (a file:// page): the page's thread answers from now on */
      onPage = true;
      return;
    }
    worker.onmessage = function (e) {
      var m = e.data || {}, waiting;
      if ("ready" in m) {
        if (m.ready) { ready = true; pump(); return; }
        stop();  /* the runtime could not be read or started (m.why): the next change tries again */
        waiting = queue;
        queue = [];
        waiting.forEach(function (r) { r.done(null, false, m.why === "offline" ? "offline" : "broken"); });
      } else if (current && m.id === current.id) {
        clearTimeout(timer);
        waiting = current;
        current = null;
        waiting.done(m.shard, false);
        pump();
      }
    };
    worker.onerror = function (e) {
      e.preventDefault();
      var lost = current, waiting = queue, started = ready;
      current = null;
      queue = [];
      stop();
      if (lost) lost.done(null, false);
      if (!started) onPage = true;  /* the worker itself did not start (refused): the page's thread answers */
      waiting.forEach(ask);
    };
    worker.postMessage({ base: base });
  }

  function pump() {
    if (!ready || current || !queue.length) return;
    current = queue.shift();
    current.id = ++asked;
    worker.postMessage({ id: current.id, key: current.key, py: current.py, pos: current.pos });
    if (current.seconds > 0) timer = setTimeout(tooLong, current.seconds * 1000);
  }

  function tooLong() {
    var late = current;
    current = null;
    stop();
    late.done(null, true);
    startWorker(late.base);  /* a fresh one for the next try, starting while the player reads */
    if (onPage) queue.splice(0).forEach(onThePage);
  }

  /* req: the form, the runtime's folder (base), its head file (key), py, pos, seconds; req.done(shard, late, why):
   * why "offline" (the runtime not fetched) or "broken" (fetched, not started) when there is no runtime. */
  function ask(req) {
    if (!onPage && !worker) startWorker(req.base);
    if (onPage) { onThePage(req); return; }
    queue.push(req);
    pump();
  }

  /* The form's answers asked and not yet shown will not be: a value changed since. */
  function forget(form) {
    form.kbAsked = (form.kbAsked || 0) + 1;
    form.kbPending = null;
    queue = queue.filter(function (q) { return q.form !== form; });
  }

  /* Whether the page's Python has started (an answer then takes a moment, not a download). */
  function started() { return onPage ? !!runtime : ready; }

  /* say(what the form says while the runtime loads): calc_loading, with its size, unless the game is saved for
   * offline (the runtime is in the service worker's cache: nothing to download, calc_starting); a runtime only in
   * the browser's own cache is not seen, and calc_loading's "the first time" stays true. */
  function loading(base, words, say) {
    var full = words.calc_loading, cached = window.caches && words.calc_starting;
    if (!cached) { say(full); return; }
    try {
      window.caches.match(base + "kb-py-wasm.js").then(function (hit) { say(hit ? words.calc_starting : full); },
                                                       function () { say(full); });
    } catch (e) {  /* no cache to ask here (an opaque origin) */
      say(full);
    }
  }

  /* No runtime: not fetched (why "offline": calc_no_runtime) or fetched and not started ("broken": calc_cannot_start,
   * calc_no_runtime from a build without those words). */
  function noRuntime(box, words, why) {
    var broken = why === "broken";
    box.textContent = "";
    box.setAttribute("data-kb-outcome", JSON.stringify({ error: broken ? "runtime-not-started" : "runtime-unreadable" }));
    var text = broken && words.calc_cannot_start || words.calc_no_runtime;
    box.appendChild(el("p", "kb-calc-message", text)).setAttribute("role", "alert");
  }

  function inPage(form, head, box, pos) {
    var numbers = JSON.stringify(pos), base = new URL(form.getAttribute("data-kb-py"), location.href).href;
    if (form.kbPending === numbers) return;  /* being worked out already (a field's input, then its change) */
    forget(form);
    wait(form, box, head.words, started() ? null : function (say) { loading(base, head.words, say); });
    form.kbPending = numbers;
    var n = form.kbAsked;
    withPy(form, head, function (py) {
      if (form.kbAsked !== n) return;  /* a value changed since */
      if (!py) { form.kbPending = null; settle(form); unreadable(box, head); return; }
      askPy(form, head, box, pos, base, n, py);
    });
  }

  /* A head's py names its game's shared file (py.data, beside the head: the names its answers may show and the
   * entries its context reads, one file for every form of the game, kb/site/calc.py py_data_path) rather than
   * holding a copy; done(the whole py) once that file is read, or done(null) if it cannot be. */
  function withPy(form, head, done) {
    if (head.wholePy || !head.py.data) { done(head.wholePy || head.py); return; }
    var file = form.getAttribute("data-kb-file"), key = file.slice(0, file.lastIndexOf("/") + 1) + head.py.data;
    load(key, head.py.data, function (shared) {
      if (!shared) { done(null); return; }
      var py = Object.assign({}, head.py, { names: shared.names, context: null });
      if (head.py.context) py.context = { entry: shared.entries[head.py.context.entry], entries: shared.entries };
      head.wholePy = py;
      done(py);
    });
  }

  function askPy(form, head, box, pos, base, n, py) {
    ask({ form: form, base: base, key: form.getAttribute("data-kb-file"),
          py: py, pos: pos, seconds: head.seconds, done: function (shard, late, why) {
            if (form.kbAsked !== n) return;  /* a value changed since: the later answer is shown */
            form.kbPending = null;
            settle(form);
            if (why) { noRuntime(box, head.words, why); return; }
            if (late) {
              box.textContent = "";
              box.setAttribute("data-kb-outcome", JSON.stringify({ error: "resolver-too-long" }));
              box.appendChild(el("p", "kb-calc-message", head.words.calc_too_long)).setAttribute("role", "alert");
              return;
            }
            if (!shard) { unreadable(box, head); return; }
            box.textContent = "";
            var o = shard.outcomes[shard.index[shard.at]];
            showOutcome(box, o, shard, head.words);
            oddsTable(box, head, shard, 0, pos, o);
          } });
  }

  /* Inputs made of items (a list's, a mapping's entries: data-kb-item names the input): "add" shows the first item
   * not added and moves the focus to it, "remove" hides its item and moves the focus to "add"; a hidden item's field
   * is disabled, which the numbering reads as "absent"; a list closes up (closeUp). A group whose size the rule fixes (data-kb-all: both
   * players' VP) is added whole and removed whole (data-kb-remove-all), never one item alone. The answer follows
   * through the form's change event. */
  function items(form) {
    function adders(group) { return form.querySelectorAll('[data-kb-add="' + group + '"]'); }
    function refresh(group) {
      var left = form.querySelectorAll('[data-kb-item="' + group + '"][hidden]').length;
      var all = form.querySelectorAll('[data-kb-item="' + group + '"]').length;
      adders(group).forEach(function (b) { b.disabled = left === 0; });
      form.querySelectorAll('[data-kb-remove-all="' + group + '"]').forEach(function (b) { b.disabled = left === all; });
    }
    function changed() { form.dispatchEvent(new Event("change")); }
    function show(box) {
      var input = box.querySelector("[data-kb-field]");
      box.hidden = false;
      input.disabled = false;
      if (input.tagName !== "SELECT" && input.value === "") input.value = typed(Number(input.getAttribute("data-kb-min")), input.getAttribute("data-kb-mark") || ".");
      return input;
    }
    /* A list's item removed (data-kb-path [input, position]: a sequence of actions, of decisions, of rolls): the items
     * after it move up one place, values and all, and the last shown one is the one hidden, so the list stays
     * numbered 1, 2, 3… and "add" appends after its last item. Returns the box to hide (a mapping's entry or a row's
     * item: itself). */
    function closeUp(box) {
      var path = JSON.parse(box.querySelector("[data-kb-field]").getAttribute("data-kb-path") || "[]");
      if (path.length !== 2 || typeof path[1] !== "number") return box;
      var shown = Array.prototype.filter.call(form.querySelectorAll('[data-kb-item="' + box.getAttribute("data-kb-item") + '"]'),
                                              function (b) { return !b.hidden; });
      for (var i = shown.indexOf(box); i >= 0 && i < shown.length - 1; i++) {
        shown[i].querySelector("[data-kb-field]").value = shown[i + 1].querySelector("[data-kb-field]").value;
      }
      var last = shown[shown.length - 1], input = last.querySelector("[data-kb-field]");
      if (input.tagName === "SELECT") input.selectedIndex = 0; else input.value = "";
      return last;
    }
    function removeAll(button) {
      var group = button.getAttribute("data-kb-remove-all");
      form.querySelectorAll('[data-kb-item="' + group + '"]').forEach(function (box) {
        box.hidden = true;
        box.querySelector("[data-kb-field]").disabled = true;
      });
      refresh(group);
      var back = adders(group)[0];
      if (back) back.focus();
      changed();
    }
    form.addEventListener("click", function (e) {
      var add = e.target.closest && e.target.closest("[data-kb-add]");
      var remove = e.target.closest && e.target.closest("[data-kb-remove]");
      var all = e.target.closest && e.target.closest("[data-kb-remove-all]");
      if (all) { removeAll(all); return; }
      if (add) {
        var group = add.getAttribute("data-kb-add"), hidden = form.querySelectorAll('[data-kb-item="' + group + '"][hidden]');
        if (!hidden.length) return;
        var boxes = add.hasAttribute("data-kb-all") ? Array.prototype.slice.call(hidden) : [hidden[0]];
        var input = boxes.map(show)[0];
        refresh(group);
        input.focus();
        changed(input);
      } else if (remove) {
        var item = closeUp(remove.closest("[data-kb-item]")), field = item.querySelector("[data-kb-field]"), name = item.getAttribute("data-kb-item");
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

  /* The short answer line of a long form (.kb-calc-brief, kb/site/calc.py): kept in sight at the top of the screen
   * while the player types (the answer itself may sit far below, under a phone's keyboard), it repeats the answer box
   * in one line, as calc.py's brief_text: its outputs, else its refusal or message; the box's waiting words, or "…",
   * while a new answer is awaited. aria-hidden: speak() says the same line. */
  function said(form, box) {
    var wait = box.querySelector(".kb-calc-wait");
    if (wait) return wait.textContent;
    if (form.hasAttribute("data-kb-busy")) return "…";
    var pairs = Array.prototype.map.call(box.querySelectorAll(".kb-calc-outputs dt"), function (dt) {
      return dt.textContent + ": " + (dt.nextElementSibling ? dt.nextElementSibling.textContent : "");
    });
    if (pairs.length) return pairs.join(" · ");
    var p = box.querySelector("p");
    return p ? p.textContent : "";
  }

  function brief(form) {
    var line = form.querySelector(".kb-calc-brief"), box = form.querySelector("[data-kb-outcome]");
    if (!line || !box) return;
    function sync() { line.textContent = said(form, box); }
    new MutationObserver(sync).observe(box, { childList: true, subtree: true, characterData: true });
    new MutationObserver(sync).observe(form, { attributes: true, attributeFilter: ["data-kb-busy"] });
  }

  /* What a screen reader is told (audit a11y M1): not the answer box (its steps and odds table would be read whole on
   * every keystroke) but a polite status of one line, the brief's (said()) and the odds sentence, set once the
   * values have stayed put for SETTLE ms after the player's last change (never as the page opens). The box's
   * role="alert" messages (the runtime or the data cannot be read, too long) speak for themselves: not repeated. */
  var SETTLE = 500;

  function speak(form) {
    var box = form.querySelector("[data-kb-outcome]"), status = el("p", "kb-sr kb-calc-say"), timer = 0, armed = false;
    if (!box) return;
    status.setAttribute("role", "status");
    form.appendChild(status);
    function say() {
      if (box.querySelector("[role=alert]")) { status.textContent = ""; return; }
      var text = said(form, box), odds = box.querySelector(".kb-calc-odds");
      if (text === "…") return;  /* a new answer is coming: it will be said */
      if (odds && !box.querySelector(".kb-calc-wait")) text += " · " + odds.textContent;
      if (status.textContent !== text) status.textContent = text;
    }
    function later() {
      if (!armed) return;
      clearTimeout(timer);
      timer = setTimeout(say, SETTLE);
    }
    ["input", "change"].forEach(function (t) { form.addEventListener(t, function () { armed = true; later(); }); });
    new MutationObserver(later).observe(box, { childList: true, subtree: true, characterData: true });
  }

  /* A field a value is refused in (audit a11y M2): aria-invalid, and the reason in its description after its range
   * (a hidden <span id="FIELD-error">, read by aria-describedby); both go when the value is taken. */
  function flag(input, error) {
    var id = input.id + "-error", note = document.getElementById(id);
    var ids = (input.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (t) { return t && t !== id; });
    if (error && input.id) {
      if (!note) {
        note = el("span");
        note.id = id;
        note.hidden = true;
        input.parentNode.appendChild(note);
      }
      note.textContent = error;
      ids.push(id);
    }
    if (error) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    if (ids.length) input.setAttribute("aria-describedby", ids.join(" "));
    else input.removeAttribute("aria-describedby");
  }

  /* A row just added holds its first value (show(): a number field is never left empty), selected, so that what the
   * player types replaces it (audit a11y L3: «1», then 3 typed, read 13). After items()'s own click, which focused it. */
  function selectAdded(form) {
    form.addEventListener("click", function (e) {
      var field = document.activeElement;
      if (!e.target.closest || !e.target.closest("[data-kb-add]") || !field || field.form !== form) return;
      if (field.tagName === "INPUT" && !field.readOnly) field.select();
    });
  }

  function start(form) {
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    items(form);
    selectAdded(form);
    brief(form);
    speak(form);
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
