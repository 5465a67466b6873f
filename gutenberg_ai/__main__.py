"""`python -m gutenberg_ai` is the command line `gutenberg-ai` (gutenberg_ai.interfaces.cli)."""
import sys

from gutenberg_ai.interfaces.cli import main

if __name__ == "__main__":
    sys.exit(main())
