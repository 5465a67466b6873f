"""`gutenberg-ai serve --port 0` as a user starts it, in a process of its own, for the
tests that talk to a real server (test_web_server.py, test_web_page.py)."""
import contextlib
import re
import subprocess
import sys
import tempfile
import time
import urllib.request


@contextlib.contextmanager
def running_server(*options):
    """Start the server with `options`; yields (its address, a function giving its log so
    far). Its log goes to a file (a pipe nobody reads could fill and stop the server)."""
    log = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen([sys.executable, "-u", "-m", "gutenberg_ai", "serve", "--port", "0", *options],
                            stdout=subprocess.PIPE, stderr=log, text=True)

    def log_text():
        log.seek(0)
        return log.read()
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            proc.wait(timeout=10)
            raise AssertionError(f"serve printed no address: {line!r} {log_text()}")
        url = match.group(0)
        for _ in range(200):       # until it answers
            try:
                urllib.request.urlopen(url + "api/info", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        yield url, log_text
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
