"""The source distribution carries what a build from source needs: every tracked source
of the compiled cores (the .pyx, .pxd, .pxi, .h and the glue template), the games' data
and the page's files, and none of Cython's output. Made from a copy of the tracked files,
so that no egg-info or build output of the checkout decides what goes in."""
import os
import shutil
import subprocess
import sys
import tarfile

import pytest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def tracked():
    out = subprocess.run(["git", "ls-files"], check=False, cwd=HERE, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    return [p for p in out.stdout.splitlines() if os.path.exists(os.path.join(HERE, p))]


@pytest.fixture(scope="module")
def sdist_names(tracked, tmp_path_factory):
    tree = tmp_path_factory.mktemp("tree")
    for path in tracked:
        os.makedirs(tree / os.path.dirname(path), exist_ok=True)
        shutil.copy(os.path.join(HERE, path), tree / path)
    out = tmp_path_factory.mktemp("sdist")
    subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(out)], cwd=tree,
                   check=True, capture_output=True)
    (archive,) = list(out.iterdir())
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    top = names[0].split("/")[0]
    return {n[len(top) + 1:] for n in names if "/" in n}


def test_every_core_source_is_in_the_sdist(tracked, sdist_names):
    sources = {p for p in tracked if p.startswith("ext/") and not p.endswith((".cpp", "core.h"))}
    assert any(p.endswith("search.pxi") for p in sources)
    assert sources <= sdist_names, sorted(sources - sdist_names)


def test_the_games_data_and_the_page_are_in_the_sdist(tracked, sdist_names):
    data = {p for p in tracked if p.startswith(("gutenberg_ai/games/", "gutenberg_ai/interfaces/web/static/"))
            and "/data/" in p or "/static/" in p}
    assert any(p.endswith("native_game.json") for p in data)
    assert data <= sdist_names, sorted(data - sdist_names)


def test_cythons_output_is_left_out(sdist_names):
    assert not [n for n in sdist_names if n.startswith("ext/") and n.endswith((".cpp", "core.h"))]
