"""The sinks where a pack's or a mkdocs.yml's text becomes HTML, pinned so that a mutation of them fails a test
(docs/reliability.md, "Mutation run over the sinks"): the page sanitiser's allow-list (kb/site/sanitise.py), the links
it keeps, the addresses a build refuses, and the settings the theme prints raw (kb/mkdocs_defaults.py). Each test says
what a reader's page, or the pack author's error line, holds; nothing here reads how the code does it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import Markup

from kb.mkdocs_defaults import as_text, refused_setting
from kb.site.sanitise import link, sanitise, url_problem

WHAT = "an http(s) address with a host, without spaces, quotes, <, >, backticks, backslashes or control characters"
"""The end of every refusal of an address, as the pack author reads it."""


# ---------------------------------------------------------------- the page sanitiser


def test_a_script_or_a_style_is_removed_with_what_it_holds_and_so_is_a_comment() -> None:
    assert sanitise("<p>a<!-- secret --><script>alert(1)</script><style>p{color:red}</style>b</p>") == "<p>ab</p>"


def test_a_table_cell_keeps_its_alignment_and_nothing_else_of_its_style() -> None:
    cell = '<table><tbody><tr><td style="text-align: right; color: red">x</td><th style="text-align: center">y</th>'
    assert sanitise(cell + "</tr></tbody></table>") == (
        '<table><tbody><tr><td style="text-align:right">x</td><th style="text-align:center">y</th></tr></tbody></table>')


@pytest.mark.parametrize("href", ["https://e.example/a", "http://e.example/", "mailto:a@e.example", "p.html#x", "#x"])
def test_a_web_mail_or_relative_link_is_kept_as_written_with_no_rel_added(href: str) -> None:
    assert sanitise(f'<a href="{href}">x</a>') == f'<a href="{href}">x</a>'


@pytest.mark.parametrize("href", ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,x", "vbscript:x"])
def test_a_script_link_loses_its_address(href: str) -> None:
    assert sanitise(f'<a href="{href}">x</a>') == "<a>x</a>"


# ---------------------------------------------------------------- link(): the extra settings' links


@pytest.mark.parametrize(("url", "kept"), [
    ("https://e.example/a b", "https://e.example/a%20b"),
    ("HTTP://E.example/", "HTTP://E.example/"),
    ("mailto:a@e.example", "mailto:a@e.example"),
    ("p.html#x", "p.html#x"),
    ('x" onmouseover="y', "x%22%20onmouseover=%22y"),
    ("/a/<b>'c'", "/a/%3Cb%3E%27c%27"),
    (" https://e.example/a b ", "https://e.example/a%20b"),  # the ends dropped, as a browser does: no dead link
    ("\thttps://e.example/\n", "https://e.example/"),
    ("\x00p.html#x\x1f", "p.html#x"),
])
def test_a_link_is_kept_with_no_quote_or_angle_bracket_left(url: str, kept: str) -> None:
    assert link(url) == kept


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)",
                                 "java\tscript:alert(1)", "java\x00script:alert(1)", "\x7fjava script:alert(1)",
                                 "data:text/html,x", "vbscript:x", "ftp://e.example/", "http://[x"])
def test_a_link_of_another_scheme_or_unreadable_is_left_out(url: str) -> None:
    """A control character or a space inside the scheme is read past (``java\\x00script:`` ran in old browsers)."""
    assert link(url) is None


# ---------------------------------------------------------------- url_problem(): addresses printed raw


@pytest.mark.parametrize(("url", "said"), [
    (42, f"is not text; it must be {WHAT}"),
    ('https://e.example/"><img>', f"""holds '"'; it must be {WHAT}"""),
    ("https://e.example/a b", f"holds ' '; it must be {WHAT}"),
    ("https://e.example/`", f"holds '`'; it must be {WHAT}"),
    ("https://e.example/\\x", f"holds '\\\\'; it must be {WHAT}"),
    ("https://e.example/\x7f", f"holds '\\x7f'; it must be {WHAT}"),
    ("http://[x/", f"is not an address (Invalid IPv6 URL); it must be {WHAT}"),
    ("http://h.example:x/", f"is not an address (Port could not be cast to integer value as 'x'); it must be {WHAT}"),
    ("/a/b.css", f"is not {WHAT}"),
    ("ftp://e.example/", f"is not {WHAT}"),
    ("javascript://e.example/%0aalert(1)", f"is not {WHAT}"),
    ("https:///path", f"is not {WHAT}"),
])
def test_an_address_that_may_not_be_printed_raw_is_refused_saying_why(url: object, said: str) -> None:
    assert url_problem(url) == said


@pytest.mark.parametrize("url", ["https://e.example/", "HTTPS://E.example/a?b=c#d", "http://e.example:8000/"])
def test_a_plain_web_address_with_a_host_may_be_printed(url: str) -> None:
    assert url_problem(url) is None and url_problem(url, relative=True) is None


def test_a_path_of_the_site_may_be_printed_where_a_path_is_allowed_and_only_there() -> None:
    assert url_problem("assets/logo.png", relative=True) is None
    assert url_problem("assets/logo.png") == f"is not {WHAT}"
    assert url_problem("javascript:alert(1)", relative=True) == f"is not {WHAT}, or a path of the site"
    assert url_problem('x"', relative=True) == f"""holds '"'; it must be {WHAT}, or a path of the site"""
    assert url_problem(None, relative=True) == f"is not text; it must be {WHAT}, or a path of the site"


# ---------------------------------------------------------------- refused_setting(): mkdocs.yml's settings


@pytest.mark.parametrize(("settings", "line"), [
    ({"site_url": 'https://h.example/"'}, f"""m.yml: site_url: 'https://h.example/"' holds '"'; it must be {WHAT}"""),
    ({"site_url": "https://h.example/", "repo_url": "/repo"}, f"m.yml: repo_url: '/repo' is not {WHAT}"),
    ({"edit_uri": "javascript:x"}, f"m.yml: edit_uri: 'javascript:x' is not {WHAT}, or a path of the site"),
    ({"edit_uri_template": "a b"}, f"m.yml: edit_uri_template: 'a b' holds ' '; it must be {WHAT}, or a path of the site"),
    ({"theme": {"logo": "<x"}}, f"m.yml: theme.logo: '<x' holds '<'; it must be {WHAT}, or a path of the site"),
    ({"theme": {"favicon": 7}}, f"m.yml: theme.favicon: 7 is not text; it must be {WHAT}, or a path of the site"),
    ({"extra_css": ["a.css", "b\x00.css"]},
     f"m.yml: extra_css[1]: 'b\\x00.css' holds '\\x00'; it must be {WHAT}, or a path of the site"),
    ({"theme": {"font": {"text": "Roboto", "code": "Mono;"}}},
     "m.yml: theme.font.code: 'Mono;' is not a font's name: letters, digits, spaces, + and - only"),
    ({"theme": {"font": {"text": ["Roboto"]}}},
     "m.yml: theme.font.text: ['Roboto'] is not a font's name: letters, digits, spaces, + and - only"),
])
def test_a_setting_the_theme_prints_raw_is_refused_in_one_line_naming_it(settings: dict, line: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KB_SITE_URL", raising=False)
    assert refused_setting(settings, "m.yml") == line


def test_settings_left_unset_empty_or_safe_are_not_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KB_SITE_URL", raising=False)
    assert refused_setting({}) is None
    assert refused_setting({"site_url": "", "repo_url": None, "edit_uri": False, "theme": "material", "extra_css": "x"}) is None
    assert refused_setting({"site_url": "https://h.example/", "repo_url": "https://r.example/o/r",
                            "edit_uri": "edit/main/docs/", "extra_css": ["kb.css", "https://e.example/a.css"],
                            "theme": {"logo": "img/l.png", "favicon": "img/f.png", "font": {"text": "Open Sans",
                                                                                          "code": "Fira+Code-2"}}}) is None
    assert refused_setting({"theme": {"font": False}}) is None


def test_the_site_address_from_the_environment_is_checked_only_when_mkdocs_yml_gives_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_SITE_URL", "https://h.example/<")
    assert refused_setting({}, "m.yml") == f"$KB_SITE_URL: 'https://h.example/<' holds '<'; it must be {WHAT}"
    assert refused_setting({"site_url": "https://h.example/"}, "m.yml") is None
    monkeypatch.setenv("KB_SITE_URL", "https://h.example/")
    assert refused_setting({}, "m.yml") is None


def test_a_refused_setting_prints_its_value_on_one_line_with_no_control_character(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KB_SITE_URL", raising=False)
    said = refused_setting({"repo_url": "https://r.example/\u202e\n"})
    assert said is not None and "\n" not in said and "\u202e" not in said and said.startswith("mkdocs.yml: repo_url: ")


# ---------------------------------------------------------------- as_text(): the settings the theme prints as text


def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **settings: object):
    from mkdocs.config import load_config

    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: Mini\n", encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"), **settings)
    as_text(config)
    return config


def test_the_sites_name_description_author_and_repository_name_show_as_typed(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    typed = '<b>"Mini" & co</b>'
    config = _config(tmp_path, monkeypatch, site_name=typed, site_description=typed, site_author=typed, repo_name=typed)
    shown = "&lt;b&gt;&#34;Mini&#34; &amp; co&lt;/b&gt;"
    assert [str(config[k]) for k in ("site_name", "site_description", "site_author", "repo_name")] == [shown] * 4


def test_the_copyright_keeps_its_markup_but_no_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _config(tmp_path, monkeypatch, copyright='&copy; <a href="javascript:x" onclick="y">Me</a><script>z</script>')
    assert str(config.copyright) == "© <a>Me</a>" and isinstance(config.copyright, Markup)
    kept = Markup('<a href="https://e.example/">Me</a>')
    assert _config(tmp_path, monkeypatch, copyright=kept).copyright is kept


def test_the_extra_settings_show_as_text_their_links_and_scripts_only_when_safe(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    extra = {
        "consent": {"title": "<img src=x onerror=y>", "description": '<b>ok</b><img src=x onerror=y><a href="https://e.example/">p</a>',
                    "cookies": {"<k>": "<v>"}, "actions": ["accept", "<x>"]},
        "social": [{"icon": "i", "link": "javascript:alert(1)", "name": "<s>"},
                   {"icon": "i", "link": "https://e.example/a b", "name": "ok"}],
        "alternate": [{"name": "es", "link": "/es/", "lang": "es"}, {"name": "x", "link": "javascript:x", "lang": "en"}],
        "homepage": 'https://e.example/"x',
        "scope": '/"+alert(1)+"',
        "analytics": {"provider": "google", "property": "G-AB12", "feedback": {"ratings": [
            {"name": "<n>", "note": '<a href="https://e.example/f">tell</a><script>x</script>'}]}},
        "version": {"provider": "<mike>"}, "annotate": {"json": [".s2 > i"]}, "polyfills": ["p.js?a=1&b=<2>"],
        "count": 3, "flag": True, "none": None,
    }
    out = _config(tmp_path, monkeypatch, extra=extra).extra
    consent = out["consent"]
    assert str(consent["title"]) == "&lt;img src=x onerror=y&gt;"
    assert str(consent["description"]) == '<b>ok</b><a href="https://e.example/">p</a>'
    assert {str(k): str(v) for k, v in consent["cookies"].items()} == {"&lt;k&gt;": "&lt;v&gt;"}
    assert [str(a) for a in consent["actions"]] == ["accept", "&lt;x&gt;"]
    assert [(s.get("link"), str(s["name"])) for s in out["social"]] == [(None, "&lt;s&gt;"),
                                                                       ("https://e.example/a%20b", "ok")]
    assert [a.get("link") for a in out["alternate"]] == ["/es/", None]
    assert str(out["homepage"]) == "https://e.example/%22x"
    assert "scope" not in out
    assert out["analytics"]["property"] == "G-AB12"
    rating = out["analytics"]["feedback"]["ratings"][0]
    assert (str(rating["name"]), str(rating["note"])) == ("&lt;n&gt;", '<a href="https://e.example/f">tell</a>')
    assert (out["version"], out["annotate"], out["polyfills"]) == (  # the theme prints them as JSON or script URLs
        {"provider": "<mike>"}, {"json": [".s2 > i"]}, ["p.js?a=1&b=<2>"])
    assert (out["count"], out["flag"], "none" in out) == (3, True, False)


def test_a_scope_of_a_path_is_kept_and_a_property_with_a_quote_is_left_out(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    out = _config(tmp_path, monkeypatch, extra={"scope": "/sub/path", "analytics": {"property": 'G-1"'}}).extra
    assert out["scope"] == "/sub/path" and "property" not in out["analytics"]
