"""A bounded load test of `gutenberg-ai serve` on 127.0.0.1: GAMES concurrent clients
each play a short game against the AI (Printing Press, 1 round, the AI at ITERATIONS
iterations a move) and ask for a hint at each of their first HINTS decisions, all at
once, against one server in a process of its own. Reports the latency of each kind of
request (median, 95th percentile, max), the server's resident memory (peak and at the
end, from /proc) and the machine's load average. Bounded: GAMES games, budgets in
iterations (the server bounds them in time too), and a deadline at which the searches
under way are stopped through the API and the games left.

    python benchmarks/web_load.py --games 8 --workers 2
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import threading
import time

import httpx


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


def stream(client, url, body, deadline):
    """A streamed search's result; past the run's deadline the search is stopped (the
    game's /stop) and Stopped raised, so the run ends on time."""
    stopped = False
    with client.stream("POST", url, json=body) as r:
        r.raise_for_status()
        last = None
        for line in r.iter_lines():
            if line:
                last = json.loads(line)
            if not stopped and time.monotonic() > deadline:
                client.post(url.rsplit("/", 1)[0] + "/stop")
                stopped = True
    if last is None or last["event"] != "done":
        if stopped and last and last.get("status") == 499:
            raise Stopped()
        raise RuntimeError(f"{url}: the stream ended with {last}")
    return last["result"]


class Stopped(Exception):
    """A search stopped at the run's deadline."""


def p95(xs):
    """The 95th percentile, nearest rank."""
    return sorted(xs)[max(0, math.ceil(0.95 * len(xs)) - 1)]


def player(base, k, args, times, errors, unfinished, deadline):
    with httpx.Client(base_url=base, timeout=120) as c:
        try:
            t = time.perf_counter()
            view = c.post("/api/games", json={"game": "printing-press", "players": 2, "rounds": 1, "ai": ["smmcts"],
                                                "iterations": args.iterations, "seed": k}).json()
            times["new game"].append(time.perf_counter() - t)
            hints = 0
            while view["status"] != "end":
                if time.monotonic() > deadline:
                    raise Stopped()
                t = time.perf_counter()
                if view["status"] == "ai":
                    view = stream(c, f"/api/games/{view['id']}/advance", {}, deadline)
                    times["AI move"].append(time.perf_counter() - t)
                    continue
                if hints < args.hints:
                    stream(c, f"/api/games/{view['id']}/hint", {"iterations": args.hint_iterations}, deadline)
                    times["hint"].append(time.perf_counter() - t)
                    hints += 1
                    t = time.perf_counter()
                r = c.post(f"/api/games/{view['id']}/move", json={"action": view["moves"][0]["action"]})
                r.raise_for_status()
                view = r.json()
                times["your move"].append(time.perf_counter() - t)
            t = time.perf_counter()
            c.get(f"/api/games/{view['id']}/record").raise_for_status()
            times["record"].append(time.perf_counter() - t)
        except Stopped:
            unfinished.append(k)
        except Exception as e:   # counted and shown, the run goes on
            errors.append(f"game {k}: {e!r}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--iterations", type=int, default=300, help="the AI's iterations a move")
    p.add_argument("--hints", type=int, default=3, help="hints asked per game")
    p.add_argument("--hint-iterations", type=int, default=300)
    p.add_argument("--deadline", type=float, default=300.0,
                   help="seconds; then the searches under way are stopped and the games left")
    args = p.parse_args()
    server = subprocess.Popen([sys.executable, "-u", "-m", "gutenberg_ai", "serve", "--port", "0",
                               "--workers", str(args.workers)], stdout=subprocess.PIPE, text=True)
    base = re.search(r"http://[^ ]+/", server.stdout.readline()).group(0)
    for _ in range(100):
        try:
            httpx.get(base + "api/info")
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    idle = rss_mb(server.pid)
    times = {k: [] for k in ("new game", "AI move", "hint", "your move", "record")}
    errors, unfinished, peak = [], [], [idle]
    load_before = os.getloadavg()
    stop = threading.Event()

    def watch():
        while not stop.wait(0.2):
            peak.append(rss_mb(server.pid))
    threading.Thread(target=watch, daemon=True).start()
    started = time.perf_counter()
    deadline = time.monotonic() + args.deadline
    threads = [threading.Thread(target=player, args=(base, k, args, times, errors, unfinished, deadline)) for k in range(args.games)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    stop.set()
    end = rss_mb(server.pid)
    server.terminate()
    server.wait()
    print(f"{args.games} games at once, {args.workers} search workers, AI {args.iterations} iterations a move, "
          f"{args.hints} hints of {args.hint_iterations} iterations a game: {wall:.1f} s, "
          f"{args.games - len(unfinished) - len(errors)} games finished, {len(unfinished)} stopped at the "
          f"deadline, {len(errors)} errors")
    print(f"machine: {os.cpu_count()} cores, load average {load_before[0]:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after (1 min)")
    print(f"{'request':<10} {'count':>6} {'median s':>9} {'p95 s':>7} {'max s':>7}")
    for kind, xs in times.items():
        if xs:
            xs = sorted(xs)
            print(f"{kind:<10} {len(xs):>6} {statistics.median(xs):>9.3f} {p95(xs):>7.3f} "
                  f"{xs[-1]:>7.3f}")
    print(f"server memory (RSS): {idle:.0f} MB idle, {max(peak):.0f} MB peak, {end:.0f} MB at the end")
    for e in errors[:5]:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
