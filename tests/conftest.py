"""The order the tests run in: the files with the longest tests first (the browser's
whole games, over a minute each; `python -m pytest -q -n auto --durations=30` names
them), the rest as collected. With several workers (pytest-xdist) a long test that
starts at the end runs alone while the other workers wait; started first, the short
ones fill in around it."""

LONGEST_FIRST = ("test_web_page.py", "test_suite.py", "test_bots.py", "test_cluster.py")


def pytest_collection_modifyitems(session, config, items):
    def rank(item) -> int:
        name = item.path.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
    items.sort(key=rank)   # stable: each file's own order kept
