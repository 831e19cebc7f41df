"""The site's address (issue 29): ``site_url`` from mkdocs.yml, else ``$KB_SITE_URL``, else the local default; the
sitemap and robots.txt built from it (the crawl over a built site is in test_browser.py)."""

from __future__ import annotations

from xml.etree import ElementTree

from mkdocs.config.defaults import MkDocsConfig

from kb.mkdocs_defaults import SITE_URL, set_site_url
from kb.site.sitemap import robots, sitemap


def _config(url: str | None = None) -> MkDocsConfig:
    config = MkDocsConfig()
    config.load_dict({"site_name": "x", **({"site_url": url} if url else {})})
    config.validate()
    return config


def test_the_site_url_is_the_config_s_else_the_environment_s_else_the_default(monkeypatch) -> None:
    monkeypatch.delenv("KB_SITE_URL", raising=False)
    assert set_site_url(_config()) == SITE_URL
    monkeypatch.setenv("KB_SITE_URL", "https://rules.example/games")
    assert set_site_url(_config()) == "https://rules.example/games/"
    assert set_site_url(_config("https://other.example/r/")) == "https://other.example/r/"


def test_a_sitemap_lists_each_page_with_its_twins_escaped() -> None:
    text = sitemap(["index.html", "g/a&b.html"], "en", "https://h.example/", ["es", "en"])
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = ElementTree.fromstring(text).findall("s:url", ns)
    assert [u.findtext("s:loc", namespaces=ns) for u in urls] == ["https://h.example/en/index.html",
                                                                  "https://h.example/en/g/a%26b.html"]
    assert [(a.get("hreflang"), a.get("href")) for a in urls[1].findall("x:link", ns)] == [
        ("es", "https://h.example/es/g/a%26b.html"), ("en", "https://h.example/en/g/a%26b.html")]
    assert robots("https://h.example/", ["es", "en"]).splitlines()[-2:] == [
        "Sitemap: https://h.example/sitemap.xml", "Sitemap: https://h.example/en/sitemap.xml"]
