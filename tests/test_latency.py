"""Press to light on the Unix port's virtual clock (``sim --replay``):
every move, the winning one included, is lit within one key scan of its
key going down. Virtual time moves only while the firmware waits, so this
holds the loop's own waits to account, whatever the machine's speed
(benchmarks/latency.py measures the same over more games)."""

import json
import os
import subprocess
import sys

import pytest

from conftest import BOARDS, HANG_S, ROOT
from tactictoe import rules

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import latency  # noqa: E402


@pytest.mark.parametrize("board", ["pico-buttons", "keypad", "macropad", "keybow"])
def test_every_move_is_lit_within_one_key_scan(tmp_path, table_files, board):
    with open(os.path.join(BOARDS, board + ".json")) as f:
        scan_ms = json.load(f).get("timing", {}).get("scan_ms", 5)
    lines, marks, _ = latency.press_script(2)
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    r = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--replay", str(script), "--board", board,
                        "--flash", str(tmp_path / "flash"), "--tables", os.path.dirname(table_files[rules.CLASSIC]),
                        "--then", "500"], cwd=ROOT, capture_output=True, text=True, timeout=HANG_S)
    last = "\n".join(r.stdout.splitlines()[-12:]) + r.stderr[-2000:]
    assert r.returncode == 0, last
    got = latency.latencies(marks, latency.frames(r.stdout))
    assert len(got) == 10 and sum(won for _, won in got) == 2, last
    late = [(edge, ms) for (edge, _, _, _), (ms, _) in zip(marks, got) if ms > scan_ms]
    assert not late, "lit later than one key scan (%d ms) after the key went down: %r\n%s" % (scan_ms, late, last)
