"""A build's outputs kept between commands (kb/site/outputs.py, issue 33: the warm build): reused only for the same
inputs, written once, replaced when the content changes, remade when the cache file is damaged."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from conftest import MKDOCS, cli
from kb.api import KnowledgeBase
from kb.site.calc import calc_site
from kb.site.outputs import AREA, content_key, kept

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site" / "content"


def _kb(tmp_path: Path) -> KnowledgeBase:
    content = tmp_path / "content"
    if not content.exists():
        shutil.copytree(FIXTURE, content)
    return KnowledgeBase.load(content, cache_base=tmp_path / "cache")


def test_an_output_is_made_once_per_key_and_a_hit_writes_nothing(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    made: list[str] = []

    def make(value: str):
        return lambda: made.append(value) or {"text": value}

    key = content_key(kb, "es")
    first, found = kept(kb, "thing-es", key, make("one"), lambda v: isinstance(v, dict))
    assert (first, found, made) == ({"text": "one"}, False, ["one"])
    [path] = (tmp_path / "cache" / AREA).rglob("thing-es-*.json")
    stamp = path.stat().st_mtime_ns
    again, found = kept(kb, "thing-es", key, make("two"), lambda v: isinstance(v, dict))
    assert (again, found, made) == ({"text": "one"}, True, ["one"])  # not made again
    assert path.stat().st_mtime_ns == stamp  # and not written again
    other, found = kept(kb, "thing-es", content_key(kb, "en"), make("three"), lambda v: isinstance(v, dict))
    assert (other, found) == ({"text": "three"}, False)
    assert [p.name for p in path.parent.glob("thing-es-*.json")] != [path.name] and not path.exists()  # one state kept


def test_a_name_nobody_writes_any_more_is_tidied_away_and_the_games_parts_stay(tmp_path: Path) -> None:
    """The calculators' parts are kept as ``calc-<lang>-<game>``; a file of that family under another name (an older
    engine's whole-language ``calc-es-<key>``, a game no longer in the content) is removed by the next build of that
    language; the other language's, the current games' and other names' files stay."""
    kb = _kb(tmp_path)
    calc_site(kb, "es", keep=True)
    folder = next((tmp_path / "cache" / AREA).iterdir())
    parts = sorted(p.name for p in folder.glob("calc-es-*.json"))
    assert [re.sub(r"-[0-9a-f]+\.json$", "", n) for n in parts] == ["calc-es-common", "calc-es-mini", "calc-es-other"]
    orphans = [folder / "calc-es-0123456789abcdef01234567.json", folder / "calc-es-gone-0123456789ab.json",
               folder / "calc-es-mini-gone-0123456789ab.json"]  # a game gone whose id begins with a present one's
    others = [folder / "calc-en-0123456789abcdef01234567.json", folder / "pages-es-0123456789ab.json"]
    for path in orphans + others:
        path.write_text("{}", encoding="utf-8")
    calc_site(KnowledgeBase.load(kb.root, cache_base=tmp_path / "cache"), "es", keep=True)
    assert [p for p in orphans if p.exists()] == [] and all(p.exists() for p in others)
    assert sorted(p.name for p in folder.glob("calc-es-*.json")) == parts  # the game's part kept, not made again


def test_the_key_follows_the_content_and_a_damaged_file_is_made_again(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    key = content_key(kb, "es")
    assert content_key(kb, "es") == key and content_key(kb, "es", "other input") != key
    aim = kb.root / "mini" / "actions" / "aim.yaml"
    aim.write_text(aim.read_text(encoding="utf-8").replace("una acción", "dos acciones"), encoding="utf-8")
    assert content_key(_kb(tmp_path), "es") != key  # one file edited: another key
    kept(kb, "thing-es", key, lambda: {"text": "one"}, lambda v: isinstance(v, dict))
    [path] = (tmp_path / "cache" / AREA).rglob("thing-es-*.json")
    path.write_bytes(path.read_bytes().replace(b"one", b"owt"))  # the signature no longer matches
    value, found = kept(kb, "thing-es", key, lambda: {"text": "made"}, lambda v: isinstance(v, dict))
    assert (value, found) == ({"text": "made"}, False)
    value, found = kept(kb, "thing-es", key, lambda: {"text": "wrong"}, lambda v: isinstance(v, list))  # not its shape
    assert (value, found) == ({"text": "wrong"}, False)


def test_a_second_kb_build_reuses_the_outputs_and_an_edit_makes_them_again(tmp_path: Path, monkeypatch) -> None:
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))

    def build(name: str) -> tuple[str, Path]:
        out = tmp_path / name
        code, stdout, stderr = cli("--content", str(content), "build", "--config", MKDOCS, "--site-dir", str(out))
        assert code == 0, stdout + stderr
        return stdout, out

    cold, first = build("first")
    warm, second = build("second")
    assert "(0 made from the content)" not in cold and "kept)" not in cold
    assert warm.count("(0 made from the content)") == 2 and warm.count("parts, kept)") == 2
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert all((first / p).read_bytes() == (second / p).read_bytes() for p in files)  # the same site
    aim = content / "mini" / "actions" / "aim.yaml"
    aim.write_text(aim.read_text(encoding="utf-8").replace("Apuntar cuesta una acción", "Apuntar cuesta tres acciones"),
                   encoding="utf-8")
    edited, third = build("third")
    assert "(0 made from the content)" not in edited and "kept)" not in edited
    assert "Apuntar cuesta tres acciones" in (third / "es" / "mini" / "aim.html").read_text(encoding="utf-8")
    # the entries' texts sit in the search data's text parts (kb-search-es-d<n>.js), fetched for the hits shown
    texts = "".join(p.read_text(encoding="utf-8") for p in sorted((third / "es").glob("kb-search-es-d*.js")))
    assert "Apuntar cuesta tres acciones" in texts


def _exported(kb: KnowledgeBase, words: Path | None) -> dict[str, str]:
    """Each language's search data as JSON text, exported by a reader of ``kb`` (``words``: the word facts' folder,
    and beside it the index segments' terms, ``segments``; ``None``: none, all computed afresh)."""
    from kb.core.model import LANGS
    from kb.search.export import export

    reader = kb.search_reader()
    segments = words.parent / "segments" if words else None
    return {lg: json.dumps(export(reader, lg, lambda i: i, {"mini": "Mini"}, cache=words, key=kb.cache_key,
                                  segments=segments), ensure_ascii=False) for lg in LANGS}


def _whoosh_postings(kb: KnowledgeBase) -> dict[str, dict[str, list[object]]]:
    """Each scored field's postings as Whoosh's merged reader gives them (its public ``lexicon``, ``doc_frequency``
    and ``postings``), in the export's terms: by term text, its document frequency, then per live document its
    position among the live ones, its weight and its positions."""
    from kb.search.export import _FIELDS

    with kb.search_reader().ix.searcher() as s:
        r = s.reader()
        at = {d: i for i, d in enumerate(d for d in range(r.doc_count_all()) if not r.is_deleted(d))}
        out: dict[str, dict[str, list[object]]] = {}
        for field in _FIELDS:
            out[field] = {}
            for btext in r.lexicon(field):
                text = btext.decode("utf-8")
                row: list[object] = [r.doc_frequency(field, text)]
                m = r.postings(field, btext)
                while m.is_active():
                    positions = m.value_as("positions")
                    row += [at[m.id()], m.weight(), len(positions), *positions]
                    m.next()
                out[field][text] = row
    return out


def _exported_postings(data: dict[str, object]) -> dict[str, dict[str, list[object]]]:
    terms: list[str] = data["terms"]  # type: ignore[assignment]
    return {f["name"]: {terms[row[0]]: row[1:] for row in f["postings"]} for f in data["fields"]}  # type: ignore[attr-defined, index]


def test_the_search_export_from_kept_parts_is_the_clean_export(tmp_path: Path) -> None:
    """The word list's facts and the index segments' terms kept between commands, and the parts one language's export
    leaves for the next (kb/search/export.py, issue 33) give, after an edit, byte for byte what an export that keeps
    nothing gives; the facts follow the figures they are made with (another ``real_word_zipf``: other facts, not the
    kept ones), the segments' terms their files (an index built again: none of the kept ones). The postings merged
    from the segments' are those Whoosh's merged reader gives."""
    from dataclasses import replace

    from kb.search import whoosh_access
    from kb.search.ranking import DEFAULTS

    words = tmp_path / "words"
    first = _kb(tmp_path)
    before = _exported(first, words)  # the facts written
    shooting = tmp_path / "content" / "mini" / "rules" / "shooting.yaml"
    shooting.write_text(shooting.read_text(encoding="utf-8").replace("sacar 8 o más", "sacar 9 o más con zorblatos"),
                        encoding="utf-8")
    kept_ = _exported(_kb(tmp_path), words)  # the facts read back, the second language from the first's parts
    clean = _exported(_kb(tmp_path), None)  # another reader: nothing kept, nothing read
    assert kept_ == clean and kept_["es"] != kept_["en"]
    assert _exported(first, words) == clean  # the first reader, whose index moved on: its kept parts are not reused
    assert "zorblatos" in kept_["es"] and "zorblatos" not in before["es"]  # the edit's word is in the word list
    _edit(tmp_path / "content" / "mini" / "actions" / "aim.yaml", "Apuntar cuesta una acción", "Apuntar cuesta dos")
    kept_ = _exported(_kb(tmp_path), words)  # the segments read before read back, the update's new one read
    assert kept_ == _exported(_kb(tmp_path), None)
    assert _exported_postings(json.loads(kept_["es"])) == _whoosh_postings(_kb(tmp_path))  # as Whoosh merges segments
    ix = _kb(tmp_path).search_reader().ix
    held = {f"{digest}.json" for *_, digest in whoosh_access.segments(ix, ix.reader())}
    # the index's segments only; an update rewrites the index as a fresh build would (one segment: kb/search/index.py)
    assert sorted(p.name for p in (tmp_path / "segments").iterdir()) == sorted(held) and len(held) == 1
    shutil.rmtree(tmp_path / "cache" / "search")  # the index built again: one segment, of other files
    kept_ = _exported(_kb(tmp_path), words)
    assert kept_ == _exported(_kb(tmp_path), None)
    other = replace(DEFAULTS, real_word_zipf=5.0)

    def reloaded() -> KnowledgeBase:
        return KnowledgeBase.load(tmp_path / "content", cache_base=tmp_path / "cache", ranking=other)
    stricter = _exported(reloaded(), words)
    assert stricter == _exported(reloaded(), None) and stricter["es"] != clean["es"]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path} no longer holds {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


EDITS = [
    ("a summary", "mini/actions/aim.yaml", "Apuntar cuesta una acción", "Apuntar cuesta dos acciones"),
    ("a new link to another game's entry (its page's backlinks)", "mini/actions/aim.yaml",
     "necesita línea de visión hacia su objetivo.", "necesita {@term other.sight|visibilidad} hacia su objetivo."),
    ("a title other pages link to and show", "mini/terms/line-of-sight.yaml", "{es: Línea de visión, en: Line of sight}",
     "{es: Línea de tiro, en: Line of fire}"),
    ("a glossary term's forms", "mini/terms/line-of-sight.yaml", "abbreviations: {es: [LdV], en: [LoS]}",
     "abbreviations: {es: [LdV, LDT], en: [LoS, LoF]}"),
    ("a worked example", "mini/rules/shooting.yaml", "given: {dice: 2d6, at_least: 8}\n    probability: 15/36",
     "given: {dice: 2d6, at_least: 9}\n    probability: 10/36"),
    ("a title of another game's entry", "other/terms/sight.yaml", "{es: Visibilidad, en: Visibility}",
     "{es: Visión, en: Vision}"),
    ("a label of a resolver another game's entries use", "other/mechanics.py", '"bonus": ("bonificación", "bonus")',
     '"bonus": ("ventaja", "edge")'),
    ("a resolver's range (its calculators' forms, not its pages' text)", "other/mechanics.py",
     'ranges={"bonus": between(0, 2)}', 'ranges={"bonus": between(0, 3)}'),
    ("a game's name (every one of its pages' titles)", "other/game.yaml", "name: {es: Otro Juego, en: Other Game}",
     "name: {es: Otro Juego Nuevo, en: Another Game}"),
    ("a file deleted", "other/terms/sight.yaml", "", ""),
]
"""The edits :func:`test_a_build_after_each_kind_of_edit_is_the_clean_build` makes one after the other: (what, file,
text, its replacement; an empty text: the file deleted)."""


CALCULATORS = {"other/mechanics.py": '''\
from kb.mechanics import Context, Trace, between, outcome, resolver


@resolver("other.reach", ranges={"bonus": between(0, 2)}, outputs={"reach": "how far", "note": "a length read"},
          labels={"bonus": ("bonificación", "bonus"), "reach": ("alcance", "reach"), "note": ("nota", "note")})
def reach(context: Context, bonus: int):
    """Six plus a bonus; with a bonus, the length of mini.aim's Spanish summary, read through the context (not at
    the examples' values, so that their results do not change when it does)."""
    aim = context.lookup("mini.aim") if bonus > 1 else None
    return outcome(Trace(), reach=6 + bonus, note=len(aim["summary"]["es"]) if aim else 0)
''', "other/rules/range.yaml": """\
id: other.range
kind: rule
game: other
title: {es: Alcance, en: Range}
summary: {es: Seis más la bonificación., en: Six plus the bonus.}
source: {doc: seed.txt, section: Vista}
examples:
  - id: base
    mechanic: other.reach
    given: {bonus: 0}
    expect: {reach: 6}
""", "mini/rules/cover.yaml": """\
id: mini.cover
kind: rule
game: mini
title: {es: Cobertura, en: Cover}
summary: {es: Una tirada con un modificador por la visibilidad., en: A roll with a modifier for visibility.}
source: {doc: seed.txt, section: Disparo}
examples:
  - id: seen
    mechanic: check.roll-over
    given: {target: 7, modifiers: {other.sight: 1}}
    expect: {target: 8}
  - id: far
    mechanic: other.reach
    given: {bonus: 1}
    expect: {reach: 7}
"""}
"""Calculators whose data reads other files than their entry's: ``mini.cover``'s forms name another game's entry (its
title) and use another game's resolver (its labels); ``other.range``'s resolver reads ``mini.aim`` (its context), so
each is changed by an edit of another game's files (kb/site/calc.py, :func:`game_key`)."""


def _files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_a_build_after_each_kind_of_edit_is_the_clean_build(tmp_path: Path, monkeypatch) -> None:
    """Issue 33, the build after an edit: what ``kb build`` keeps between commands (kb/site/outputs.py, the search
    export's facts and parts) never shows a stale page. After each kind of edit, the build that reuses the last
    command's outputs is, file for file and byte for byte, the build of the same content with a cache of its own, but
    for the search index and the word facts (which no content changes), copied in: an index updated after an edit is
    not the index built afresh (Whoosh keeps a deleted document's statistics until it merges, and puts the new ones
    last), so its search data is not either. Another game's entry links to the edited game's, so a kept page of an
    unchanged game would show the old title or the old backlinks; each game's calculators are kept apart (a summary's
    edit remakes the edited game's and those of the game whose resolver reads it, not the shared concepts'), and some
    read another game's titles, resolvers and entries (:data:`CALCULATORS`)."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    for rel, text in CALCULATORS.items():
        (content / rel).parent.mkdir(exist_ok=True)
        (content / rel).write_text(text, encoding="utf-8")
    _edit(content / "other" / "terms" / "sight.yaml", "La visibilidad decide a quién se dispara.",
          "La visibilidad decide a quién se puede {@rule mini.shooting|disparar} ({@term mini.line-of-sight}).")

    made: list[list[tuple[int, int]]] = []
    parts: list[list[tuple[int, int]]] = []
    copied: list[list[tuple[int, int]]] = []

    def build(name: str, cache: Path) -> dict[str, bytes]:
        monkeypatch.setenv("KB_CACHE", str(cache))
        out = tmp_path / name
        code, stdout, stderr = cli("--content", str(content), "build", "--config", MKDOCS, "--site-dir", str(out))
        assert code == 0, stdout + stderr
        made.append([(int(m[2]), int(m[1])) for m in re.finditer(r"building (\d+) pages \((\d+) made", stdout)])
        parts.append([(int(m[1]), int(m[2])) for m in re.finditer(r"\((\d+) of (\d+) parts made\)", stdout)])
        copied.append([(int(m[1]), int(m[2])) for m in re.finditer(r"(\d+) of (\d+) pages kept from the last build", stdout)])
        return _files(out)

    build("site", tmp_path / "cache")
    for n, (what, rel, old, new) in enumerate(EDITS):
        if old:
            _edit(content / rel, old, new)
        else:
            (content / rel).unlink()
        kept_ = build("site", tmp_path / "cache")
        if what == "a summary":  # the other game's pages were kept, not made again, and the concepts' calculators
            assert all(0 < n < total for n, total in made[-1]) and len(made[-1]) == 2, made[-1]
            calculators = parts[-1]
            # and most pages' HTML copied from the last build, not rendered (kb/site/rendered.py)
            assert len(copied[-1]) == 2 and all(total / 2 < n < total for n, total in copied[-1]), copied[-1]
        if what.startswith("a title"):  # every page's menu shows it: every page rendered
            assert [n for n, _ in copied[-1]] == [0, 0], copied[-1]
        fresh = tmp_path / f"fresh-{n}"
        for area in ("search", "search-words"):  # the same search index (below) and the facts of no content
            shutil.copytree(tmp_path / "cache" / area, fresh / area, symlinks=True)
        clean = build(f"clean-{n}", fresh)
        assert [n for n, _ in copied[-1]] == [0, 0], copied[-1]  # a folder never built: every page rendered
        assert sorted(kept_) == sorted(clean), what
        differ = [path for path in clean if kept_[path] != clean[path]]
        assert not differ, f"after {what}: {differ}"
    assert calculators == [(2, 3), (2, 3)], calculators  # mini's and other's (whose resolver reads mini.aim) made again


def test_the_engine_version_covers_its_catalogs() -> None:
    """Every kept output carries the engine's version (kb.core.cache.code_version) in its key, and the pages and the
    calculators show the catalogs' strings: an edited ``kb.po`` is another engine, not a stale page."""
    from kb.core.cache import engine_files
    from kb.core.locale import catalog_path
    from kb.core.model import LANGS

    hashed = {path.resolve() for path in engine_files()}
    assert all(catalog_path(lang).resolve() in hashed for lang in LANGS)
    assert Path(__file__).resolve().parents[1] / "kb" / "site" / "calc.py" in hashed


def test_a_page_changed_in_the_site_is_rendered_again_and_strict_allows_the_copies(tmp_path: Path, monkeypatch) -> None:
    """kb/site/rendered.py: a page is copied from the site only while its file there is the one the last build wrote
    (a page edited by hand, or gone, is rendered again); MkDocs' warning about dirty builds does not fail ``--strict``;
    ``--clean`` renders every page. Each build equals, file for file, a build in a folder never built."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    site = tmp_path / "site"

    def build(out: Path, *more: str) -> list[tuple[int, int]]:
        code, stdout, stderr = cli("--content", str(content), "build", "--config", MKDOCS, "--site-dir", str(out), "--strict", *more)
        assert code == 0 and "dirty" not in stdout + stderr, stdout + stderr
        return [(int(m[1]), int(m[2])) for m in re.finditer(r"(\d+) of (\d+) pages kept from the last build", stdout)]

    assert [n for n, _ in build(site)] == [0, 0]
    page, gone = site / "es" / "mini" / "aim.html", site / "en" / "mini" / "aim.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", "<p>hand edit</p></body>"), encoding="utf-8")
    gone.unlink()
    kept_ = build(site)
    assert [total - n for n, total in kept_] == [1, 1], kept_
    linked, elsewhere = site / "es" / "mini" / "index.html", tmp_path / "elsewhere.html"
    shutil.copy2(linked, elsewhere)  # the same bytes, size and time, behind a link: not our file, not copied
    linked.unlink()
    linked.symlink_to(elsewhere)
    assert [total - n for n, total in build(site)] == [1, 0]
    assert not (site / "es" / "mini" / "index.html").is_symlink()
    assert [n for n, _ in build(tmp_path / "never-built")] == [0, 0]
    assert _files(site) == _files(tmp_path / "never-built")
    assert [n for n, _ in build(site, "--clean")] == [0, 0]
    assert [total - n for n, total in build(site)] == [0, 0]  # nothing changed: every page copied


def test_the_record_of_a_site_folder_since_deleted_is_removed_by_the_next_build(tmp_path: Path, monkeypatch) -> None:
    """kb/site/rendered.py: each language's record of a built folder names that folder; a build removes the records
    of folders no longer there (and of none: an older engine's), and keeps those of folders that are."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))

    def build(out: Path) -> None:
        code, stdout, stderr = cli("--content", str(content), "build", "--config", MKDOCS, "--site-dir", str(out))
        assert code == 0, stdout + stderr

    def records() -> dict[str, set[str]]:
        from kb.site.rendered import Record
        key = KnowledgeBase.load(content).cache_key  # records are signed with the user's key
        found: dict[str, set[str]] = {}
        for path in (tmp_path / "cache").rglob("rendered-*.json"):
            found.setdefault(Record.read(path, key).site, set()).add(path.name.split("-")[1])
        return found

    one, two, three = tmp_path / "one", tmp_path / "two", tmp_path / "three"
    build(one)
    build(two)
    assert records() == {str(one.resolve()): {"es", "en"}, str(two.resolve()): {"es", "en"}}
    shutil.rmtree(two)
    old = next((tmp_path / "cache").rglob("rendered-*.json")).with_name("rendered-es-0123456789abcdef.json")
    old.write_text("[]", encoding="utf-8")  # a record that cannot say its folder
    build(three)
    assert records() == {str(one.resolve()): {"es", "en"}, str(three.resolve()): {"es", "en"}}


def test_a_copied_pages_title_is_its_front_matter_title_as_mkdocs_reads_it() -> None:
    """kb/site/rendered.py: a copied page is not read by MkDocs; its title (``on_nav``) is read from the front matter
    kb wrote, and equals what MkDocs' own reading gives, whatever the title holds."""
    from mkdocs.utils.meta import get_data

    from kb.site.findable import front_matter, front_matter_title

    for title in ["Blindaje", 'Un "duelo" & <b>negrita</b>', "Línea · ¿visión?", "back\\slash\ttab", "ünïcödé — “x”"]:
        page = front_matter(title, "una descripción") + "# Título\n\nTexto.\n"
        assert front_matter_title(page) == get_data(page)[1]["title"]
    assert front_matter_title("# Sin front matter\n") is None
