import sys

from gameclock.cli import main

sys.exit(main())
