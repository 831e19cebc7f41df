"""Issue 28's "What broke" list, case by case, against the current code: each case's command(s) and what they do now.

    .venv/bin/python tools/recheck_issue28.py        # prints a Markdown table (docs/reliability.md keeps one)

Each case is a fresh small tree in a temporary folder; each command runs as its own ``kb`` process. A row shows
the exit code, whether a traceback was printed, and the first line that names the problem. Printed, never
asserted: the tests named in docs/reliability.md are what guard each case.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAME = "id: g\nname: {es: Juego, en: Game}\nsource_language: es\nsources:\n  - doc: seed.txt\n"


def rule(eid: str = "g.r", extra: str = "", title: str = "Regla") -> str:
    return (f"id: {eid}\nkind: rule\ngame: g\ntitle: {{es: {title}, en: Rule}}\n"
            "summary: {es: Un resumen., en: A summary.}\nsource: {doc: seed.txt, section: s}\n" + extra)


ACTION_COST = "kind: action\n"
CASES: list[tuple[str, dict[str, str], list[list[str]]]] = [
    ("tagged empty value `cost: !!int`", {"g/actions/a.yaml": rule("g.a", "cost: !!int\n").replace("kind: rule", "kind: action")},
     [["check", "--strict"], ["show", "g.a"], ["test"], ["search", "regla"]]),
    ("`!!float ''`", {"g/actions/a.yaml": rule("g.a", "cost: !!float ''\n").replace("kind: rule", "kind: action")},
     [["check", "--strict"], ["show", "g.a"]]),
    ("28-digit number in a cost", {"g/actions/a.yaml": rule("g.a", "cost: 1234567890123456789012345678\n")
                                   .replace("kind: rule", "kind: action")},
     [["check", "--strict"], ["show", "g.a"]]),
    ("control characters `\\e[2J` in a title", {"g/rules/r.yaml": rule(title='"Borra\\e[2J la pantalla"')},
     [["check", "--strict"], ["show", "g.r"], ["search", "borra"]]),
    ("300-character id", {"g/rules/r.yaml": rule("g." + "r" * 300)}, [["check", "--strict"], ["show", "g." + "r" * 300]]),
    ("two ids, one page (`g.index`, `g.index-entry`)", {"g/rules/a.yaml": rule("g.index"),
                                                         "g/rules/b.yaml": rule("g.index-entry")},
     [["check", "--strict"]]),
    ("spreadsheet formula in a glossary term", {"g/terms/t.yaml": "id: g.t\nkind: term\ngame: g\n"
                                                "title: {es: '=HYPERLINK(\"x\")', en: '+cmd|x'}\n"
                                                "source: {doc: seed.txt, section: s}\n"
                                                "term: {forms: {es: ['=HYPERLINK(\"x\")'], en: ['+cmd|x']}}\n"},
     [["i18n", "glossary", "--format", "csv", "-o", "glossary.csv"]]),
    ("`kb show` of a typo `kb check` reports (unknown kind)", {"g/rules/r.yaml": rule().replace("kind: rule", "kind: rul")},
     [["check"], ["show", "g.r"]]),
    ("`mechanics.py` calling `os._exit(0)`", {"g/mechanics.py": "import os\nos._exit(0)\n", "g/rules/r.yaml": rule()},
     [["check"], ["test"]]),
]


def _run(root: Path, argv: list[str]) -> tuple[int, str]:
    env = {**os.environ, "KB_CACHE": str(root.parent / "cache"), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "kb", "--content", str(root), *argv], capture_output=True, text=True,
                          cwd=root.parent, env=env, timeout=300)
    return done.returncode, done.stdout + done.stderr


def _said(text: str) -> str:
    if "\x1b" in text:
        return "RAW ESCAPE PRINTED"
    lines = [ln for ln in text.splitlines() if any(w in ln for w in ("error", "refused", "cannot", "written"))] or \
        text.splitlines()
    return (lines[0] if lines else "").replace("|", "\\|")[:150]


def _outputs(tmp: Path) -> list[str]:
    """`-o` onto what is not a regular file: a symlink, a FIFO, a device node (made here), a folder."""
    root = tmp / "o" / "content"
    (root / "g" / "rules").mkdir(parents=True)
    (root / "g" / "game.yaml").write_text(GAME, encoding="utf-8")
    (root / "g" / "rules" / "r.yaml").write_text(rule(), encoding="utf-8")
    rows = []
    targets = {"symlink": tmp / "o" / "link", "FIFO": tmp / "o" / "fifo", "folder": tmp / "o" / "dir"}
    (tmp / "o" / "kept").write_text("kept\n")
    os.symlink(tmp / "o" / "kept", targets["symlink"])
    os.mkfifo(targets["FIFO"])
    targets["folder"].mkdir()
    if os.geteuid() == 0:
        targets["device"] = tmp / "o" / "null"
        os.mknod(targets["device"], 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    for what, path in targets.items():
        for cmd in (["i18n", "export", "-o", str(path)], ["i18n", "glossary", "-o", str(path)]):
            code, out = _run(root, cmd)
            mode = os.lstat(path).st_mode
            kept = {"symlink": stat.S_ISLNK, "FIFO": stat.S_ISFIFO, "folder": stat.S_ISDIR,
                    "device": stat.S_ISCHR}[what](mode)
            rows.append(f"| `-o` onto a {what} | `kb {' '.join(cmd[:2])}` | {code} | {'Traceback' in out} | "
                        f"{'kept' if kept else 'REPLACED'}: {_said(out)} |")
    return rows


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| case | command | exit | traceback | says |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="kb-recheck-") as name:
        tmp = Path(name)
        for n, (case, files, commands) in enumerate(CASES):
            root = tmp / str(n) / "content"
            (root / "g").mkdir(parents=True)
            (root / "g" / "game.yaml").write_text(GAME, encoding="utf-8")
            for rel, body in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(body, encoding="utf-8")
            for argv in commands:
                code, out = _run(root, argv)
                if argv[-1] == "glossary.csv" and (root.parent / "glossary.csv").is_file():
                    out = "written: " + " / ".join(ln for ln in (root.parent / "glossary.csv").read_text().splitlines()
                                                   if "HYPERLINK" in ln or "cmd" in ln)
                shown = " ".join(a if len(a) < 20 else a[:12] + "…" for a in argv)
                print(f"| {case} | `kb {shown}` | {code} | {'Traceback' in out} | {_said(out)} |", flush=True)
        for row in _outputs(tmp):
            print(row, flush=True)


if __name__ == "__main__":
    main()
