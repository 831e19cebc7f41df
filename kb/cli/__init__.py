"""The `kb` command and its subcommands: thin adapters over the API (``kb.cli.main:main`` is the console script)."""
