"""The `kb` command and its subcommands (adapters over the API)."""

from kb.cli.main import main, run

__all__ = ["main", "run"]
