"""`python -m mdsel` runs the CLI."""

import sys

from mdsel.cli import main

sys.exit(main())
