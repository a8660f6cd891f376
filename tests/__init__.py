"""The test suite, laid out like the code it tests (docs/testing.md §2)."""

from pathlib import Path

# The repository: the working directory of the commands some tests run (manage.py, make, bin/).
REPO_ROOT = Path(__file__).resolve().parent.parent
