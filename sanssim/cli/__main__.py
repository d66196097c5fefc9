"""`python -m sanssim.cli`, as the tests and a bare checkout without the console script run it."""

import sys

from sanssim.cli import main

sys.exit(main())
