import sys

from engine.evaluate.cli import main

sys.exit(main())
