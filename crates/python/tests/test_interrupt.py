"""Ctrl-C stops a long solve: KeyboardInterrupt, soon, not a hung or crashed interpreter."""

import signal
import subprocess
import sys
import time

LONG_SOLVE = """
import signal
import sys
from ply import othello
# As in an interactive session, whatever the test runner inherited (a shell's background
# job starts with SIGINT ignored, and then Python installs no handler of its own).
signal.signal(signal.SIGINT, signal.default_int_handler)
print("ready", flush=True)
try:
    othello.solve(othello.Board(), threads=1, hash_mb=16)  # 8x8 from the start: years
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished?!", flush=True)
sys.exit(1)
"""


def test_ctrl_c_interrupts_a_solve():
    p = subprocess.Popen(
        [sys.executable, "-c", LONG_SOLVE], stdout=subprocess.PIPE, text=True
    )
    assert p.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        raise AssertionError("the solve did not stop on SIGINT")
    assert "interrupted" in out and p.returncode == 0
    assert time.monotonic() - sent < 10
