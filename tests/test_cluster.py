"""Games on Ray (the optional extra): the same records as the local pool for the same
seeds, resume, claims given back, and a clear error without Ray. CI installs the extra
(.ci/run) and runs these on a local cluster.

The Ray cases live in ray_cases.py and each runs in a pytest process of its own: a Ray
driver whose raylet dies exits at once (status 1), and inside this run it would end the
whole test run with no summary. A case whose process ends without a result (the cluster
died, not an assertion) is run once more, and says so; a case that fails, fails."""
import inspect
import os
import subprocess
import sys

import pytest

import ray_cases
from gutenberg_ai.tools import cluster

HERE = os.path.dirname(os.path.abspath(__file__))
RAY_CASES = [name for name, f in inspect.getmembers(ray_cases, inspect.isfunction) if name.startswith("test_")]


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)     # `import ray` raises ImportError
    with pytest.raises(cluster.ClusterError, match=r"pip install -e '\.\[ray\]'"):
        cluster.connect("local", 1)


def test_the_ray_cases_are_found():
    assert len(RAY_CASES) >= 4 and "test_a_lost_worker_loses_no_game" in RAY_CASES


@pytest.mark.parametrize("case", RAY_CASES)
def test_on_ray(case, tmp_path):
    pytest.importorskip("ray")
    outputs = []
    for attempt in (1, 2):
        report = tmp_path / f"report-{attempt}.xml"
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              f"--junitxml={report}", f"--basetemp={tmp_path / f'run-{attempt}'}",
                              f"{os.path.join(HERE, 'ray_cases.py')}::{case}"],
                             cwd=HERE, capture_output=True, text=True, timeout=900)
        outputs.append(f"attempt {attempt}, status {run.returncode}:\n{run.stdout[-6000:]}\n{run.stderr[-3000:]}")
        if report.exists():        # pytest finished and judged the case
            break
        print(f"{case}: the Ray process ended without a result (status {run.returncode}); running it again")
    assert run.returncode == 0, "\n".join(outputs)
