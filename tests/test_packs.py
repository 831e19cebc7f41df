"""Rules packs outside this repository: ``kb init``, ``kb new``, fresh translations, the installed wheel."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from kb.cli.main import run

REPO = Path(__file__).resolve().parents[1]


def kb(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return run(list(argv), out, err), out.getvalue(), err.getvalue()


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("KB_CONTENT", raising=False)
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    code, out, err = kb("init", str(tmp_path / "pack"), "--game", "skirmish")
    assert code == 0, err
    monkeypatch.chdir(tmp_path / "pack")
    return tmp_path / "pack"


def test_init_makes_a_pack_with_one_entry_of_each_kind(pack: Path) -> None:
    kinds = {p.parent.name for p in (pack / "content" / "skirmish").glob("*/*.yaml")}
    assert kinds == {"actions", "abilities", "terrain", "sequences", "rules", "rulings", "terms"}
    assert len((pack / "mkdocs.yml").read_text().splitlines()) <= 5
    assert "kb build --strict" in (pack / "README.md").read_text()
    code, out, _ = kb("check", "--strict")  # the game's summary is kb init's placeholder (audit-packs defect 14)
    assert code == 1 and [line.split(": ", 1)[1] for line in out.splitlines()] == [
        f"warning[template-text]: 'summary.{lang}' is still the placeholder text kb new or kb init wrote: write your "
        "own words" for lang in ("es", "en")], out
    _own_summary(pack)
    code, _, err = kb("check", "--strict")
    assert code == 0, err
    code, out, _ = kb("test")
    assert code == 0 and out.strip() == "7 passed, 0 failed"


def test_init_json_lists_every_file_it_made(tmp_path: Path) -> None:
    """``kb init --json`` lists the editor schemas too, not only the templates (audit-cli 10)."""
    import json

    code, out, err = kb("init", str(tmp_path / "pack"), "--json")
    assert code == 0, err
    made = {Path(p).resolve() for p in json.loads(out)["files"]}
    assert made == {p.resolve() for p in (tmp_path / "pack").rglob("*") if p.is_file()}
    assert (tmp_path / "pack" / "schema" / "entry.schema.json").resolve() in made
    code, out, _ = kb("init", str(tmp_path / "other"))
    assert code == 0 and f": {len(made)} files," in out


def _own_summary(pack: Path) -> None:
    """The game's summary in the author's words, for the sample of ``kb init`` to pass ``--strict``."""
    from kb.core.validate import TEMPLATE_TEXTS

    game = next((pack / "content").glob("*/game.yaml"))
    text = game.read_text(encoding="utf-8")
    for placeholder in TEMPLATE_TEXTS:
        text = text.replace(placeholder, "Escaramuzas de prueba." if "juego" in placeholder else "Test skirmishes.")
    game.write_text(text, encoding="utf-8")


def test_the_guides_worked_example_of_the_whole_path_checks_and_makes_a_working_calculator(pack: Path) -> None:
    """docs/packs.md's mechanics.py and cover.yaml, copied literally into a fresh pack: --strict passes, the 8 examples
    pass, and its calculator is one a reader can change (it declared no ranges: a form fixed at the example's values,
    audit-pack2 defect 1)."""
    import re

    from kb.api import KnowledgeBase
    from kb.site.calc import calc_site

    guide = (REPO / "docs" / "packs.md").read_text(encoding="utf-8")
    mechanics, rule = re.findall(r"```(?:python|yaml)\n(.*?)```", guide[guide.index("A worked example of the whole path"):],
                                 re.S)[:2]
    (pack / "content/skirmish/mechanics.py").write_text(mechanics, encoding="utf-8")
    (pack / "content/skirmish/rules/cover.yaml").write_text(rule, encoding="utf-8")
    _own_summary(pack)
    code, out, err = kb("check", "--strict")
    assert code == 0, out + err
    code, out, _ = kb("test")
    assert code == 0 and out.strip() == "8 passed, 0 failed"
    form = calc_site(KnowledgeBase.load(pack / "content"), "es").forms["skirmish/cover.md"][0]
    assert 'name="roll"' in form and 'name="cover"' in form and "data-kb-fixed" not in form


def test_the_sample_shows_its_players_by_name(pack: Path) -> None:
    """kb init's game.yaml names the ids its examples use: the trace reads «Bea y Ana», not the raw ids (audit-packs 21)."""
    for lang, order in (("es", "Orden: Bea y Ana."), ("en", "Order: Bea and Ana.")):
        code, out, err = kb("show", "skirmish.initiative-roll", "--lang", lang)
        assert code == 0 and order in out, out + err


def test_init_never_writes_over_a_folder_in_use(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    code, _, err = kb("init", str(tmp_path / "mine"))
    assert code == 2 and "not an empty folder" in err
    assert os.listdir(tmp_path / "mine") == ["notes.txt"]
    code, _, err = kb("init", str(tmp_path / "x"), "--game", "Bad Name")
    assert code == 2 and "lowercase" in err
    code, _, err = kb("init", str(tmp_path / "x"), "--game", "common")  # the concepts' shared folder
    assert code == 2 and "game 'common': the name is reserved" in err and not (tmp_path / "x").exists()


HOSTILE_ES = 'Juego "x" # c: d, {e} [f] & <script>window.pwned=1</script> é 🎲'
HOSTILE_EN = "Game's: #1 </title><script>window.pwned=2</script> 'q' -"
"""Game names a YAML file breaks on when they go in as they are (``#`` starts a comment, ``: `` a key, a quote or a
brace ends a flow mapping), with the markup a page must show as text."""


def test_init_writes_the_names_as_yaml_strings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """audit-hostile2 6: the names went into mkdocs.yml and game.yaml as they were; ``B # c: d`` gave a game.yaml that
    failed to load. Now each file reads back exactly the names, and mkdocs.yml holds only its two settings."""
    import yaml

    monkeypatch.delenv("KB_CONTENT", raising=False)
    folder = tmp_path / "pack"
    code, _, err = kb("init", str(folder), "--game", "hx", "--name-es", HOSTILE_ES, "--name-en", HOSTILE_EN)
    assert code == 0, err
    config = yaml.safe_load((folder / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config == {"site_name": f"{HOSTILE_ES} · {HOSTILE_EN}", "plugins": ["kb"]}
    game = yaml.safe_load((folder / "content" / "hx" / "game.yaml").read_text(encoding="utf-8"))
    assert game["name"] == {"es": HOSTILE_ES, "en": HOSTILE_EN}
    assert game["sources"][0]["title"] == {"es": f"Reglas de {HOSTILE_ES}", "en": f"Rules of {HOSTILE_EN}"}
    code, out, _ = kb("--content", str(folder / "content"), "check")
    assert "yaml-syntax" not in out and "error[raw-html]: raw HTML '<script>'" in out  # the linter names the markup


@pytest.mark.parametrize("option, name, shown", [
    ("--name-es", "A\nextra_javascript:\n  - https://evil.example/x.js\n#", "character 2 (\\n) is a line break"),
    ("--name-en", "Game\r", "character 5 (\\r) is a line break"),
    ("--name-en", "Ga\u2028me", "character 3 (\\u2028)"),
    ("--name-es", "Jue\x1b[2Jgo", "character 4 (\\x1b)"),
    ("--name-en", "A\u202eB", "character 2 (\\u202e)"),
    ("--name-es", "  ", "is empty"),
    ("--name-en", "x" * 401, "of 401 characters: the most allowed is 400"),
    ("--name-en", "A · B", "' · ' separates the two languages' names"),
])
def test_init_refuses_a_name_that_is_not_one_line_of_text_and_writes_nothing(
        tmp_path: Path, option: str, name: str, shown: str) -> None:
    """A line break in a name added settings to mkdocs.yml (``extra_javascript``: a script on every page)."""
    code, out, err = kb("init", str(tmp_path / "pack"), option, name)
    assert code == 2 and out == "" and err.startswith(f"kb init: {option} ") and shown in err, err
    assert err.count("\n") == 1 and "(nothing was written)" in err
    assert not (tmp_path / "pack").exists()


def test_new_adds_an_entry_that_checks(pack: Path) -> None:
    code, out, err = kb("new", "rule", "skirmish.charge")
    assert code == 0, err
    made = Path(out.strip())
    assert made == pack / "content" / "skirmish" / "rules" / "charge.yaml"
    head = made.read_text(encoding="utf-8").splitlines()[0]
    assert head == "# yaml-language-server: $schema=../../../schema/entry.schema.json"
    assert (made.parent / head.split("=", 1)[1]).resolve().is_file()
    code, _, err = kb("check")
    assert code == 0, err                     # it loads and links; its texts are still the template's
    code, out, _ = kb("check", "--strict")
    assert code == 1 and out.count("warning[template-text]") == 8, out  # 5, the title made of the id, the game's summary
    assert "charge.yaml:5:13: warning[template-text]: 'title.es' is still the placeholder" in out, out
    code, _, err = kb("new", "rule", "skirmish.charge")
    assert code == 2 and "already exists" in err
    code, _, err = kb("new", "rule", "nogame.charge")
    assert code == 2 and "no game 'nogame'" in err and "skirmish" in err
    code, _, err = kb("new", "spell", "skirmish.fireball")
    assert code == 2 and "invalid choice" in err


def test_new_offers_only_the_packs_games(pack: Path) -> None:
    """``kb new rule big`` (no game in the id) offered ``big.charge``: a game the pack lacks. Its example and its
    "did you mean" name only the pack's games, and the games are listed when none is close."""
    code, out, err = kb("new", "rule", "big")
    assert code == 2 and out == "" and "e.g. skirmish.big (games: skirmish)" in err and "big.charge" not in err, err
    code, _, err = kb("new", "rule", "skirmsh")
    assert code == 2 and "e.g. skirmish.charge; did you mean 'skirmish'? (games: skirmish)" in err, err
    code, _, err = kb("new", "rule", "skirmsh.charge")
    assert code == 2 and "no game 'skirmsh'" in err and "did you mean 'skirmish'?" in err, err
    code, _, err = kb("new", "rule", "zzz.charge")
    assert code == 2 and "did you mean" not in err and "(games: skirmish)" in err, err


def test_new_and_init_say_an_id_with_a_line_break_in_one_line(pack: Path, tmp_path: Path) -> None:
    """An id or game typed with a line break (a paste) is refused in one line, the break written ``\\n`` (audit-atk21 6)."""
    for argv in (("new", "rule", "skirmish.x\ny"), ("new", "rule", "sk\nx.y"), ("init", str(tmp_path / "p2"), "--game", "a\nb")):
        code, out, err = kb(*argv)
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and "\\n" in err, err


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_staleness_starts_when_the_spanish_changes_after_the_english(pack: Path) -> None:
    shoot = pack / "content" / "skirmish" / "actions" / "shoot.yaml"
    _own_summary(pack)
    _git(pack, "init", "-q")
    _git(pack, "add", "-A")
    _git(pack, "commit", "-qm", "both languages at once")
    assert kb("check", "--strict")[0] == 0                      # written in both languages: current, no ack
    text = shoot.read_text(encoding="utf-8")
    shoot.write_text(text.replace("Cuesta una acción", "Cuesta dos acciones"), encoding="utf-8")
    code, out, _ = kb("check", "--strict")
    assert code == 1 and out.count("stale-translation") == 1 and "'summary'" in out
    _git(pack, "commit", "-qam", "Spanish changed, English not yet")
    assert "stale-translation" in kb("check")[1]                # still stale once committed
    shoot.write_text(shoot.read_text(encoding="utf-8").replace("Costs one action", "Costs two actions"),
                     encoding="utf-8")
    assert kb("check", "--strict")[0] == 0                      # the English caught up


def _serve_once(exe: Path, pack: Path, env: dict[str, str]) -> tuple[str, int]:
    """``mkdocs serve`` in ``pack`` on a free port (it previews the first language): the Spanish shoot page's HTML
    and the status of the kb.css it links."""
    import re
    import socket
    import time
    import urllib.error
    import urllib.parse
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([str(exe), "serve", "--no-livereload", "-a", f"127.0.0.1:{port}"], cwd=pack, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/es/my-game/shoot.html", timeout=10) as r:
                    html = r.read().decode("utf-8")
                break
            except urllib.error.HTTPError:
                raise  # the server answered: a missing page is a failure, not a wait
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read() if server.stderr else ""
                time.sleep(1)
        css = re.search(r'href="([^"]*kb\.css)"', html)
        assert css, html[:2000]
        url = urllib.parse.urljoin(f"http://127.0.0.1:{port}/es/my-game/shoot.html", css.group(1))
        with urllib.request.urlopen(url, timeout=10) as r:
            return html, r.status
    finally:
        server.terminate()
        server.wait(timeout=60)


@pytest.mark.slow
def test_a_wheel_from_the_sdist_in_a_fresh_venv_makes_a_pack_that_works_from_the_first_command(tmp_path: Path) -> None:
    """The whole path of a new group, with only the installed package: sdist -> wheel -> fresh venv; in an empty
    folder kb init, kb new (then the author's own words), check --strict, test, pytest, kb build, mkdocs build and
    mkdocs serve with the site's assets, kb docs. No file of the repository is used after the sdist is made."""
    import tarfile

    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(dist), str(REPO)],
                   check=True, capture_output=True, timeout=600)
    sdist = next(dist.glob("kb_rules-*.tar.gz"))
    with tarfile.open(sdist) as tar:
        assert any(n.endswith("/tests/conftest.py") for n in tar.getnames())
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist),
                    str(sdist)], check=True, capture_output=True, timeout=600)
    wheel = next(dist.glob("kb_rules-*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py, bin_dir = env_dir / "bin" / "python", env_dir / "bin"
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "PYTHON", "VIRTUAL_ENV"))}
    env["NO_MKDOCS_2_WARNING"] = "1"

    def call(*argv: str, cwd: Path, exe: str = "kb") -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bin_dir / exe), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)

    subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True, timeout=900)
    empty = call("test", cwd=work)
    assert empty.returncode == 2 and "no content found" in empty.stderr
    assert call("init", "mypack", cwd=work).returncode == 0
    pack = work / "mypack"
    assert call("check", "--strict", cwd=pack).returncode == 1  # kb init's game summary is a placeholder
    _own_summary(pack)
    for argv in (["check", "--strict"], ["test"], ["search", "linea de vision"]):  # the core install is enough
        done = call(*argv, cwd=pack)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
    no_site = call("build", "--strict", cwd=pack)
    assert no_site.returncode == 2 and "kb-rules[site]" in no_site.stderr and "Traceback" not in no_site.stderr
    guide = call("docs", "packs", cwd=work)
    assert guide.returncode == 0 and "mechanics.py" in guide.stdout and "pytest" in guide.stdout, guide.stderr

    new = call("new", "rule", "my-game.charge", cwd=pack)
    assert new.returncode == 0, new.stderr
    assert call("check", "--strict", cwd=pack).returncode == 1  # kb new's placeholders are not content yet
    from kb.core.validate import TEMPLATE_TEXTS

    charge = Path(new.stdout.strip())
    text = charge.read_text(encoding="utf-8")
    for n, placeholder in enumerate(sorted(TEMPLATE_TEXTS)):
        text = text.replace(placeholder, "Carga" if placeholder == "Sección" else f"Palabras propias {n}.")
    text = text.replace("es: Charge,", "es: Carga,")  # kb new's title is the id's words in both languages
    charge.write_text(text, encoding="utf-8")
    done = call("check", "--strict", cwd=pack)
    assert done.returncode == 0, (done.stdout, done.stderr)

    subprocess.run([str(py), "-m", "pip", "install", "-q", f"{wheel}[site]", "pytest"], check=True,
                   capture_output=True, timeout=900)
    done = call("-q", "-p", "no:cacheprovider", cwd=pack, exe="pytest")  # the kb plugin: one item per example
    assert done.returncode == 0 and "7 passed" in done.stdout, (done.stdout, done.stderr)
    done = call("build", "--strict", cwd=(pack / "content"))  # mkdocs.yml is found upward
    assert done.returncode == 0, (done.stdout, done.stderr)
    done = call("build", "--strict", "-d", "site2", cwd=pack, exe="mkdocs")
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert _assets_of_every_page(pack / "site") >= 20  # kb build: both languages
    assert _assets_of_every_page(pack / "site2") >= 10  # mkdocs build: the first language
    html = (pack / "site" / "en" / "my-game" / "shoot.html").read_text(encoding="utf-8")
    assert "{#" not in html and "Shoot" in html and "kb-search-en.js" in html
    served, css_status = _serve_once(bin_dir / "mkdocs", pack, env)
    assert css_status == 200 and "kb-search.js" in served
    assert "my-game.line-of-sight" in call("search", "LoS", cwd=pack).stdout
    site_packages = next((env_dir / "lib").glob("python*/site-packages"))
    assert not list(site_packages.rglob(".kb-cache"))


def test_build_reports_as_json(pack: Path) -> None:
    import json

    code, out, err = kb("build", "--json", "--site-dir", str(pack / "out"))
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["exit"] == 0, err
    assert any("worked examples verified" in line for line in report["progress"])
    assert (pack / "out" / "es" / "index.html").is_file()


def test_a_pack_without_shared_concepts_has_no_concept_map(pack: Path) -> None:
    """One game, no ``common/`` concepts: no empty concept map, and nothing (home, menu, offline list) links to one
    (the bundled content, with concepts, keeps it: tests/test_site.py)."""
    code, out, err = kb("build", "--site-dir", str(pack / "out"))
    assert code == 0, out + err
    for lang in ("es", "en"):
        home = pack / "out" / lang
        assert (home / "index.html").is_file() and not (home / "concepts.html").exists()
        linking = [p.name for p in home.rglob("*.html") if "concepts.html" in p.read_text(encoding="utf-8")]
        assert linking == [], linking
        assert "concepts.html" not in (home / "kb-offline.json").read_text(encoding="utf-8")
    from kb.site.app import MARK, offline_index

    assert (pack / "out" / MARK).is_file()  # as `mkdocs build` into this folder finds it (it keeps dot files)
    listed = {path for game in offline_index(pack / "out", "es", ["es", "en"], "v")["games"].values() for path, _ in game["files"]}
    assert listed and not any(path.endswith(MARK) for path in listed)  # the marker is not the site


def test_bad_cli_values_exit_2_with_a_message_and_content_goes_after_the_sub_command(tmp_path: Path) -> None:
    from conftest import CONTENT, cli

    for bad in ("0", "-1", "ten"):
        code, out, err = cli("--content", str(CONTENT), "search", "disparo", "--limit", bad)
        assert (code, out) == (2, ""), err
        assert "--limit" in err and "Traceback" not in err
    code, out, err = cli("search", "disparo", "--limit", "2", "--json", "--content", str(CONTENT))
    assert code == 0, err
    data = json.loads(out)
    assert len(data["hits"]) == 2 and data["hits"][0]["game"]
    code, out, err = cli("search", "disaparo", "--json", "--content", str(CONTENT))
    assert json.loads(out)["did_you_mean"], out
    code, out, err = cli("--content", str(tmp_path), "check", "--content", str(CONTENT))  # the later one wins
    assert code == 0, err


def test_build_finds_its_content_as_every_command_does_and_the_mkdocs_yml_beside_it(
        pack: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No content: exit 2, as every command (never the project's own games, even from its source checkout); with
    --content, the mkdocs.yml of the folder holding that content folder, else exit 2 asking for --config."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = kb("build", "--site-dir", str(elsewhere / "site"))
    assert (code, out) == (2, "") and "kb build: no content found in" in err, err
    assert not (elsewhere / "site").exists() and not (REPO / "site" / "es" / "skirmish").exists()
    loose = tmp_path / "loose"
    shutil.copytree(pack / "content", loose / "content")
    code, out, err = kb("--content", str(loose / "content"), "build", "--site-dir", str(elsewhere / "site"))
    assert (code, out) == (2, "") and f"{loose / 'mkdocs.yml'}: no such file" in err and "--config" in err, err
    code, out, err = kb("--content", str(pack / "content"), "build", "--site-dir", str(elsewhere / "site"))
    assert code == 0, err
    assert "<title>Reglas de juegos de mesa - Mi juego</title>" in (elsewhere / "site" / "es" / "index.html").read_text(
        encoding="utf-8")  # the pack's site_name, not the project's
    assert (pack / "mkdocs.yml").read_text(encoding="utf-8").count("Mi juego") == 1


def test_build_never_replaces_a_folder_it_did_not_make(pack: Path) -> None:
    """A site folder is replaced only when it is not there, empty, or a site a build made (its .kb-site): else exit
    2 before any work, nothing touched; never the content, the pack itself, a folder above it, or one with a .git."""
    (pack / "mystuff" / "sub").mkdir(parents=True)
    (pack / "mystuff" / "sub" / "notes.txt").write_text("mine\n", encoding="utf-8")
    (pack / "a-file").write_text("mine\n", encoding="utf-8")
    (pack / "old-site" / ".git").mkdir(parents=True)
    (pack / "old-site" / ".kb-site").write_text("", encoding="utf-8")
    before = sorted(str(p.relative_to(pack.parent)) for p in pack.parent.rglob("*") if ".kb-cache" not in p.parts)
    for folder, said in [("mystuff", "mystuff is not empty and no earlier build made it (it has no .kb-site file); "
                                     "delete it yourself if nothing in it is needed, or choose another folder with "
                                     "--site-dir"),
                         (".", f"{pack} holds the content folder ({pack / 'content'}); choose another folder with "
                               "--site-dir"),
                         ("content", "content is the content folder; choose another"),
                         ("..", f"{pack.parent} holds the content folder"),
                         ("a-file", "a-file is not a folder"),
                         ("old-site", "old-site holds a git repository (.git); choose another")]:
        code, out, err = kb("build", "--site-dir", folder)
        assert (code, out) == (2, ""), (folder, err)
        assert err.startswith("kb build: refused, nothing was written: ") and said in err, (folder, err)
    after = sorted(str(p.relative_to(pack.parent)) for p in pack.parent.rglob("*") if ".kb-cache" not in p.parts)
    assert after == before


def test_a_site_built_before_sites_were_marked_is_replaced_only_when_it_holds_nothing_else(pack: Path) -> None:
    (pack / "out").mkdir()
    code, _, err = kb("build", "--site-dir", "out")
    assert code == 0 and (pack / "out" / ".kb-site").is_file(), err
    (pack / "out" / ".kb-site").unlink()  # as a build before marks left it: its service worker tells it
    code, _, err = kb("build", "--site-dir", "out")
    assert code == 0 and (pack / "out" / ".kb-site").is_file(), err
    (pack / "out" / ".kb-site").unlink()
    (pack / "out" / "CNAME").write_text("rules.example.org\n", encoding="utf-8")  # a file of the user's
    code, out, err = kb("build", "--site-dir", "out")
    assert code == 2 and "out is not empty and no earlier build made it" in err, err
    assert (pack / "out" / "CNAME").is_file() and (pack / "out" / "kb-sw.js").is_file()
    assert not [p for p in pack.iterdir() if ".building-" in p.name]


def test_new_cites_the_first_source_the_game_lists(pack: Path) -> None:
    game = pack / "content" / "skirmish" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("doc: rules.txt", "doc: 'core rules: v2.txt'"),
                    encoding="utf-8")
    code, out, err = kb("new", "action", "skirmish.charge")
    assert code == 0, err
    assert "source: {doc: \"core rules: v2.txt\", section: Secci" in Path(out.strip()).read_text(encoding="utf-8")
    code, out, err = kb("check", "--json")  # the sample entries still cite rules.txt: errors there, none in charge
    found = json.loads(out)
    assert any(d["code"] == "unknown-source-doc" for d in found)
    assert not [d for d in found if "charge" in d["path"] and d["code"] != "template-text"]


def _assets_of_every_page(site: Path) -> int:
    """Check every page of ``site`` links the stylesheet and each of our scripts (in the loader), each to a file that exists."""
    import re

    from kb.mkdocs_defaults import SCRIPTS

    pages = [p for p in site.rglob("*.html") if p.parent != site and p.name != "404.html"]  # 404s link from "/"
    for page in pages:
        html = page.read_text(encoding="utf-8")
        # the stylesheet is a <link href>, the scripts are in the loader's list (kb.site.app.script_loader)
        linked = dict((Path(url).name, url) for url in re.findall(r'"([^"?#<>\s]+\.(?:css|js))"', html))
        for asset in ("kb.css", *SCRIPTS):
            assert asset in linked, (page, asset)
            assert (page.parent / linked[asset]).is_file(), (page, linked[asset])
    return len(pages)


@pytest.mark.slow
def test_every_page_keeps_its_assets_whatever_docs_holds(pack: Path) -> None:
    """``mkdocs build`` with the docs/ that ``kb init`` makes (nothing in it but .gitkeep), then with a kb.css
    of the pack's own in it (which wins), then ``kb build`` with no docs/ at all."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    assert [p.name for p in (pack / "docs").iterdir()] == [".gitkeep"]
    build(load_config(str(pack / "mkdocs.yml"), site_dir=str(pack / "site")))
    assert _assets_of_every_page(pack / "site") >= 10
    assert not (pack / "site" / ".gitkeep").exists()
    (pack / "docs" / "kb.css").write_text("/* the pack's own */\n", encoding="utf-8")
    build(load_config(str(pack / "mkdocs.yml"), site_dir=str(pack / "own")))
    _assets_of_every_page(pack / "own")
    assert (pack / "own" / "kb.css").read_text(encoding="utf-8") == "/* the pack's own */\n"
    shutil.rmtree(pack / "docs")
    code, _, err = kb("build", "--site-dir", str(pack / "bare"))
    assert code == 0, err
    assert _assets_of_every_page(pack / "bare") >= 10


@pytest.mark.slow
def test_a_docs_page_naming_a_missing_template_is_refused_at_its_front_matter(pack: Path) -> None:
    """A ``docs/`` page whose front matter names a template the theme lacks (a mistyped name, a path out of the theme):
    ``kb build`` names the page, its line and the template (MkDocs alone said "[Errno None] None"); no traceback."""
    (pack / "docs" / "t5.md").write_text('---\ntitle: T\ntemplate: "../../../etc/hostname"\n---\n\nText.\n',
                                         encoding="utf-8")
    code, _, err = kb("build", "--site-dir", str(pack / "site"))
    assert code == 1 and "Traceback" not in err, err
    assert ("docs/t5.md:3: front matter 'template': the theme has no template '../../../etc/hostname'"
            in err.splitlines()[-1]), err
    (pack / "docs" / "t5.md").write_text("---\ntemplate: main.html\n---\n\nText.\n", encoding="utf-8")
    code, _, err = kb("build", "--site-dir", str(pack / "site"))
    assert code == 0 and [p.name for p in (pack / "site").rglob("t5.html")], err


def test_every_text_kb_new_writes_is_a_placeholder_strict_refuses(pack: Path) -> None:
    """Each kind's new entry: every text but the title (made from the id) is one of TEMPLATE_TEXTS, each is
    reported at its place, and once written in the author's words --strict passes."""
    import yaml

    from kb.core.model import iter_texts
    from kb.core.validate import TEMPLATE_TEXTS
    from kb.cli.scaffold import KIND_FOLDERS

    for kind in KIND_FOLDERS:
        code, out, err = kb("new", kind, f"skirmish.new-{kind}")
        assert code == 0, err
        path = Path(out.strip())
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        texts = [(p, t) for p, t in iter_texts(data) if p != ("title",)]
        assert texts and all(v.strip() in TEMPLATE_TEXTS for _, t in texts for v in t.values()), (kind, texts)
        assert data["source"]["section"] in TEMPLATE_TEXTS
        found = [d for d in json.loads(kb("check", "--json", str(path))[1]) if d["code"] == "template-text"]
        # the texts, the section, the title made of the id and (a term) its forms (audit-packs defect 14)
        assert len(found) == 2 * len(texts) + 2 + (kind == "term"), (kind, found)
        text = path.read_text(encoding="utf-8")
        for placeholder in TEMPLATE_TEXTS:
            text = text.replace(placeholder, "Texto propio" if placeholder == "Sección" else f"Own words {len(text)}")
        words = f"new {kind}"
        text = text.replace(f"es: {words.capitalize()},", "es: Nombre propio,").replace(f"es: [{words}]", "es: [nombre]")
        path.write_text(text, encoding="utf-8")
        found = [d for d in json.loads(kb("check", "--json", str(path))[1]) if d["code"] == "template-text"]
        assert found == [], found


def test_kb_docs_prints_the_authors_guide() -> None:
    from kb.cli.docs import TOPICS

    code, out, _ = kb("docs")
    assert code == 0 and all(f"  {name} " in out for name in TOPICS)
    for name in TOPICS:
        code, out, err = kb("docs", name)
        assert code == 0, err
        assert out == (REPO / "docs" / f"{name}.md").read_text(encoding="utf-8")
    code, out, err = kb("docs", "pack")
    assert (code, out) == (2, "") and "did you mean 'packs'" in err
    guide = kb("docs", "packs")[1]
    for subject in ("mechanics.py", "LABELS", "pytest", "{@action", "examples:", "kb i18n", "term:"):
        assert subject in guide, subject  # entries, links, terms, resolvers with labels, examples, pytest, translations
    from kb.cli.main import build_parser

    assert "'kb docs'" in build_parser().format_help()


def test_the_wheel_carries_the_guide() -> None:
    """pyproject.toml ships every page of the guide as a data file (the fresh-venv test reads them installed)."""
    import tomllib

    from kb.cli.docs import SHARED, TOPICS

    shipped = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["data-files"]
    assert sorted(shipped[SHARED]) == sorted(f"docs/{name}.md" for name in TOPICS)


def test_a_docs_folder_that_is_a_link_is_refused_in_one_line_and_the_site_kept(pack: Path) -> None:
    """``docs`` itself a symbolic link to a folder outside the pack: MkDocs would publish that folder. ``kb build``
    refuses it before any work, in one located line; the previous site stays."""
    code, _, err = kb("build")
    assert code == 0, err
    outside = pack.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET-OUTSIDE\n", encoding="utf-8")
    shutil.rmtree(pack / "docs")
    os.symlink(outside, pack / "docs")
    code, out, err = kb("build")
    assert code == 1 and err.count("\n") == 1, err
    assert err == ("kb build: failed, the previous site is kept: docs:1:1: error[docs-file]: it is a symbolic link to "
                   f"{outside}, not a folder; put the folder itself there (the docs folder is copied into the site as "
                   "it is)\n"), err
    assert (pack / "site" / "kb-sw.js").is_file() and not list((pack / "site").rglob("secret.txt"))
    assert not [p for p in pack.iterdir() if ".building-" in p.name]


def test_a_docs_link_to_a_file_outside_is_refused_in_one_line_and_the_site_kept(pack: Path) -> None:
    """MkDocs copies ``docs/`` following links: a link to a file of the machine would be published (a device or a
    looping folder link would fill the disk). ``kb build`` refuses it before any work (kb/site/docs_folder.py)."""
    code, _, err = kb("build")
    assert code == 0, err
    (pack.parent / "secret.txt").write_text("SECRET-OUTSIDE\n", encoding="utf-8")
    os.symlink(pack.parent / "secret.txt", pack / "docs" / "notes.txt")
    code, out, err = kb("build")
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("kb build: failed, the previous site is kept: docs/notes.txt:1:1: error[docs-file]: it is a "
                          f"symbolic link to {pack.parent / 'secret.txt'}, outside the docs folder"), err
    assert (pack / "site" / "kb-sw.js").is_file() and not list((pack / "site").rglob("notes.txt"))
    assert not [p for p in pack.iterdir() if ".building-" in p.name]
