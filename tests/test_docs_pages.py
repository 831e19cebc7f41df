"""A pack's ``docs/`` pages and files on the built site: their names and front matter are text, their URLs encoded."""

from __future__ import annotations

import io
import json
import os
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from kb.cli.main import run

NAME = 'a"><img src=x onerror=window.__pwned=5>.md'
PLANTS = {
    NAME: "# Notes\n\nhello\n",
    "t1.md": '---\ntitle: "<img src=x onerror=window.__pwned=7>"\n---\n\nbody\n',
    "t4.md": '---\ndescription: "\\"><img src=x onerror=window.__pwned=9>"\n---\n\n# Four\n\nbody\n',
    "t6.md": "# &lt;/title&gt;&lt;img src=x onerror=window.__pwned=6&gt;\n\nbody\n",
    "n<img src=x onerror=window.__pwned=8>.md": "no heading\n",
    "%41.txt": "y\n",
    "a#b.css": "p{}\n",
    "x/index.html": "<h1>Not a game</h1>\n",
}


def kb(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return run(list(argv), out, err), out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def docs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("docs")
    old, os.environ["KB_CACHE"] = os.environ.get("KB_CACHE"), str(tmp / "cache")
    try:
        code, _, err = kb("init", str(tmp / "pack"), "--game", "mini")
        assert code == 0, err
        for name, text in PLANTS.items():
            (tmp / "pack" / "docs" / name).parent.mkdir(exist_ok=True)
            (tmp / "pack" / "docs" / name).write_text(text, encoding="utf-8")
        code, _, err = kb("--content", str(tmp / "pack" / "content"), "build", "--site-dir", str(tmp / "site"))
        assert code == 0, err
    finally:
        if old is None:
            del os.environ["KB_CACHE"]
        else:
            os.environ["KB_CACHE"] = old
    return tmp / "site"


class _Live(HTMLParser):
    """The elements of a page a planted name or front matter would make: an ``<img>``, an ``on…`` attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img" or any(name.startswith("on") for name, _ in attrs):
            self.found.append(f"<{tag} {attrs}>")


def _live(html: str) -> list[str]:
    parser = _Live()
    parser.feed(html)
    return parser.found


def _page(site: Path, lang: str, name: str) -> str:
    return (site / lang / name.replace(".md", ".html")).read_text(encoding="utf-8")


def test_the_probe_sees_an_image_and_a_handler() -> None:
    assert len(_live('<a href="es/a"><img src=x onerror=window.__pwned=5>.html">')) == 1


@pytest.mark.slow
def test_a_docs_file_name_reaches_the_language_switcher_percent_encoded(docs_site: Path) -> None:
    for lang in ("", "en"):  # the first language's docs/ pages are at the site's root
        page = _page(docs_site, lang, NAME)
        assert _live(page) == [], lang
        assert 'a%22%3E%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D5%3E.html' in page
        assert '<link rel="alternate"' not in page  # the theme's alternates are taken out whole (kb.site.app)


@pytest.mark.slow
def test_a_docs_pages_front_matter_and_name_reach_the_page_as_text(docs_site: Path) -> None:
    for lang in ("", "en"):
        for name, shown in [("t1.md", "&lt;img src=x onerror=window.__pwned=7&gt;"),
                            ("t4.md", "&#34;&gt;&lt;img src=x onerror=window.__pwned=9&gt;"),
                            ("t6.md", "&lt;/title&gt;&lt;img src=x onerror=window.__pwned=6&gt;"),
                            ("n<img src=x onerror=window.__pwned=8>.md", "N&lt;img src=x onerror=window.  pwned=8&gt;")]:
            page = _page(docs_site, lang, name)
            assert _live(page) == [], (lang, name)
            assert shown in page.replace("&quot;", "&#34;"), (lang, name)
        head = _page(docs_site, lang, "t6.md").split("</head>")[0]
        assert head.count("</title>") == 1, lang


@pytest.mark.slow
def test_the_offline_list_names_each_docs_file_by_a_url_that_fetches_it(docs_site: Path) -> None:
    """The scripts read the list's paths as URLs (``new URL(path, index)``): ``%41.txt`` was fetched as ``A.txt``,
    ``a#b.css`` as ``a``, and saving every game failed."""
    for lang in ("es", "en"):
        index = json.loads((docs_site / lang / "kb-offline.json").read_text(encoding="utf-8"))
        home = f"http://h.example/{lang}/kb-offline.json"
        files = [f for game in index["games"].values() for f, _ in game["files"]]
        files += [f for f, _ in index.get("runtime", {}).get("files", [])]  # the calculators' runtime, listed apart
        assert files and set(index["hashes"]) == set(files)
        for listed in files:
            path = unquote(urlsplit(urljoin(home, listed)).path)
            assert (docs_site / path.lstrip("/")).is_file(), (lang, listed)
        assert {"%2541.txt", "a%23b.css"} <= {f.rsplit("/", 1)[-1] for f in files}, lang


@pytest.mark.slow
def test_a_docs_folder_with_an_index_page_is_no_game_of_the_offline_list(docs_site: Path) -> None:
    for lang in ("es", "en"):
        index = json.loads((docs_site / lang / "kb-offline.json").read_text(encoding="utf-8"))
        assert sorted(index["games"]) == ["mini"], lang
