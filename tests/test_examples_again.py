"""A rebuild of the preview runs again only the worked examples an edit can have changed (issue 33)."""

from __future__ import annotations

import shutil
from pathlib import Path

from kb import KnowledgeBase

FIXTURE = Path(__file__).parent / "fixtures" / "site" / "content"


def _statuses(results):
    return [(r.entry.id, r.example.id, r.status, r.error) for r in results]


def test_only_the_edited_entrys_examples_and_those_reading_other_entries_run_again(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    cache = tmp_path / "cache"
    first = KnowledgeBase.load(content, cache_base=cache)
    results = first.run_examples()
    assert results and all(r.passed for r in results)
    context = sum(first.registry.get(r.example.mechanic).wants_context for r in results)
    assert 0 < context < len(results)  # the fixture has both kinds: the test sees each path

    unchanged = KnowledgeBase.load(content, cache_base=cache)
    again, ran = unchanged.run_examples_since(first, results)
    assert _statuses(again) == _statuses(results)
    assert ran == context  # only the examples whose resolver reads other entries
    assert all(r.entry is unchanged.entries[r.entry.id] for r in again)  # bound to the new load's entries

    rule = content / "mini" / "rules" / "shooting.yaml"
    rule.write_text(rule.read_text(encoding="utf-8").replace("probability: 15/36", "probability: 16/36"),
                    encoding="utf-8")
    edited = KnowledgeBase.load(content, cache_base=cache)
    again, ran = edited.run_examples_since(unchanged, results)
    assert _statuses(again) == _statuses(edited.run_examples())
    assert [r.status for r in again if r.entry.id == "mini.shooting"] == ["failed"]
    assert ran == context + 1

    game = content / "mini" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    regamed = KnowledgeBase.load(content, cache_base=cache)
    again, ran = regamed.run_examples_since(edited, edited.run_examples())
    assert ran == len(again) and _statuses(again) == _statuses(regamed.run_examples())


def test_a_reload_in_the_same_process_parses_only_the_edited_file_and_reads_no_parse_cache(tmp_path, monkeypatch):
    from kb.core import loader

    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    cache = tmp_path / "cache"
    first = KnowledgeBase.load(content, cache_base=cache)
    rule = content / "mini" / "rules" / "shooting.yaml"
    rule.write_text(rule.read_text(encoding="utf-8").replace("probability: 15/36", "probability: 16/36"),
                    encoding="utf-8")
    read, parsed = [], []
    real_read, real_parse = loader.cache.load, loader.load_entry
    monkeypatch.setattr(loader.cache, "load", lambda path, *a, **k: read.append(path) or real_read(path, *a, **k))
    monkeypatch.setattr(loader, "load_entry", lambda path, *a: parsed.append(path) or real_parse(path, *a))
    again = KnowledgeBase.load(content, cache_base=cache, before=first)
    assert not [p for p in read if "parse" in p.parts]
    assert parsed == [rule]
    assert again.get("mini.shooting").examples[0].probability != first.get("mini.shooting").examples[0].probability
    assert all(again.entries[i] is e for i, e in first.entries.items() if i != "mini.shooting")
    monkeypatch.undo()
    fresh = KnowledgeBase.load(content, use_cache=False)
    assert {i: e.data for i, e in fresh.entries.items()} == {i: e.data for i, e in again.entries.items()}
    assert [d.format() for d in fresh.diagnostics] == [d.format() for d in again.diagnostics]
