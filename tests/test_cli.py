"""The main command as a user runs it."""
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], capture_output=True, text=True,
                          timeout=120)


def test_demo_plays_a_full_game_and_prints_the_score_sheet():
    out = run("demo", "--seed", "7")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "=== Setup ===" in text and "=== Round 6 ===" in text
    assert "plan: orders" in text and "draft: printing" in text
    assert "Winner" in text or "Shared win" in text
    assert text == run("demo", "--seed", "7").stdout  # seeded: the same game again
    assert text != run("demo", "--seed", "8").stdout


def test_demo_quiet_prints_only_the_score_sheet():
    out = run("demo", "--players", "3", "--rounds", "2", "--quiet")
    assert out.returncode == 0
    lines = out.stdout.strip().splitlines()
    assert lines[0].split()[:2] == ["player", "fame"]
    assert [line.split()[0] for line in lines[1:4]] == ["0", "1", "2"]
    assert sum("played" in line for line in lines) == 3 and "Winner" in lines[-1] or "Shared" in lines[-1]
    assert "=== Round" not in out.stdout


def test_demo_solo_against_the_automa_gives_a_title():
    out = run("demo", "--players", "1", "--quiet", "--seed", "4")
    assert out.returncode == 0, out.stderr
    assert "Solo title: " in out.stdout
    assert "automa: automa planning card" in run("demo", "--players", "1", "--seed", "4").stdout


def test_demo_rejects_bad_parameters_without_a_traceback():
    out = run("demo", "--players", "9")
    assert out.returncode == 2
    assert "players: 9 is out of range" in out.stderr and "Traceback" not in out.stderr
