"""`python -m bench [NAME ...]` (the repository's root on the path; `make bench` runs it)."""
import sys

from bench import main

sys.exit(main())
