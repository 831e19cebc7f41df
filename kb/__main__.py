"""``python -m kb``."""

import sys

from kb.cli.main import main

sys.exit(main())
