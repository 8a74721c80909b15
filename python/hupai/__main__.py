"""``python -m hupai``: the command-line interface (see ``hupai.cli``)."""

import sys

from hupai.cli import main

sys.exit(main())
