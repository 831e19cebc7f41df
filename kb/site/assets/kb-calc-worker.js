/* The page's Python (docs/site.md, "Calculators and odds tables"): Pyodide started from the runtime's scripts
 * (kb/site/calc_runtime.py: kb-py/ at the site's root) and the answers of kb.site.calc_py.Calc. kb-calc.js runs
 * this file as a dedicated Web Worker, so that a resolver that never ends on some numbers cannot freeze the page:
 * it stops the worker past the form's time limit and starts another. Where a worker cannot start (a page opened
 * from file://: Chromium refuses a worker of a file:// script) kb-calc.js loads this file into the page by
 * <script src> instead and calls KB_CALC_PY itself, on the page's thread, as before.
 *
 * The runtime's wasm, standard library and the engine's bundle come as base64 in those scripts and are handed to
 * Pyodide in place of its fetches (which file:// pages cannot make). In the worker: a message {base} (the
 * runtime's folder, an absolute URL) loads and starts it and is answered {ready: true} or {ready: false, why}: why
 * "offline" when a file of it could not be fetched, "broken" when it came but would not run or start; then each message
 * {id, key, py, pos} (the form's head file, its head's py part, the fields' positions) is answered {id, shard}: the
 * answer as a shard holds it, or null when the resolver could not be called. No text of it is markup here. */
(function (g) {
  "use strict";

  var NAMES = ["kb-py-wasm.js", "kb-py-stdlib.js", "kb-py-lock.js", "kb-py-bundle.js", "pyodide.asm.js", "pyodide.js"];
  var calcs = {};

  function bytes(b64) {
    var s = atob(b64), a = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
    return a;
  }

  /* Once the runtime's scripts (NAMES, from base) have run: Pyodide started, done(kb.site.calc_py or null). */
  function start(base, done) {
    if (typeof g.loadPyodide !== "function") { done(null); return; }
    var files = g.KB_PY || {}, realFetch = g.fetch;
    g.fetch = function (url) {
      var name = String((url && url.url) || url).split("/").pop();
      var type = { headers: { "Content-Type": /\.wasm$/.test(name) ? "application/wasm" : "application/zip" } };
      if (Object.prototype.hasOwnProperty.call(files, name)) return Promise.resolve(new Response(bytes(files[name]), type));
      if (Object.prototype.hasOwnProperty.call(files, name + ".gz")) {  /* gzipped by the build: undone here */
        var body = new Blob([bytes(files[name + ".gz"])]).stream().pipeThrough(new DecompressionStream("gzip"));
        return Promise.resolve(new Response(body, type));
      }
      return realFetch.apply(this, arguments);
    };
    g.loadPyodide({ indexURL: base, lockFileContents: g.KB_PY_LOCK, packages: [] }).then(function (py) {
      g.fetch = realFetch;
      py.unpackArchive(bytes(files["kb-bundle.zip"]), "zip", { extractDir: "/kb-py" });
      py.runPython("import sys\nsys.path.insert(0, '/kb-py')");
      return py.pyimport("kb.site.calc_py");
    }).then(done, function () { g.fetch = realFetch; done(null); });  /* not started: a file of it broken or missing */
  }

  /* The answer of the form whose head is ``key`` (``py``, its head's py part) at ``pos``, as a shard holds it; null
   * when the resolver could not be called. */
  function answer(mod, key, py, pos) {
    try {
      if (!calcs[key]) calcs[key] = mod.Calc.load(JSON.stringify(py), "/kb-py/games");
      return JSON.parse(calcs[key].answer(JSON.stringify(pos)));
    } catch (e) {
      return null;
    }
  }

  g.KB_CALC_PY = { names: NAMES, start: start, answer: answer };

  if (typeof g.document === "undefined" && typeof g.importScripts === "function") {  /* a dedicated worker */
    var mod = null;
    g.window = g;  /* the runtime's scripts fill window.KB_PY */
    g.onmessage = function (e) {
      var m = e.data || {};
      if (typeof m.base === "string") {
        try {
          g.importScripts.apply(g, NAMES.map(function (n) { return m.base + n; }));
        } catch (x) {  /* not fetched (offline, not saved): a NetworkError; fetched but not runnable: any other */
          g.postMessage({ ready: false, why: x && x.name === "NetworkError" ? "offline" : "broken" });
          return;
        }
        start(m.base, function (found) { mod = found; g.postMessage({ ready: !!found, why: "broken" }); });
      } else {
        g.postMessage({ id: m.id, shard: mod ? answer(mod, m.key, m.py, m.pos) : null });
      }
    };
  }
})(self);
