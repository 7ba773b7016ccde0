"""Property tests of issue 24: the command line as a user drives it.

Whatever the user gives (random bad files and bytes, random options of every
command, output folders holding their files, runs interrupted by SIGINT,
SIGTERM or SIGHUP at random moments), the run ends with: no traceback, every
error one line ``explain-sudoku: error: ...``, an exit status of the README's
table, the user's files byte-identical, and the next run into the same folder
succeeding.

In-process (``main(argv)``) where no real process is needed; the interrupted
runs are real processes (``python -m explainer.app.cli``), signalled when their
output has reached a drawn number of files (so the moment is random but
independent of the machine's speed), plus a drawn delay: four chosen cases in
the default run, the drawn ones with ``--slow``. Examples are derandomized and
their number fixed, so CI is reproducible and bounded (about three minutes on a
quiet machine, most of it the drawn interrupted runs); ``PROPERTY_SCALE=10 PROPERTY_RANDOM=1``
explores further by hand. ``PROPERTY_STATS=FILE`` writes the counts (inputs
tried, per outcome) as JSON, under the key ``cli``, beside those of
``test_properties``.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from unittest import mock

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from explainer.app.cli.output import CLAIMS, MANIFEST  # noqa: E402
from tests.conftest import ROOT, SEED  # noqa: E402
from tests.helpers import run_main  # noqa: E402
from tests.test_properties import FAST, examples, puzzle_texts, snapshot, user_folder  # noqa: E402

STATS: Counter[str] = Counter()
DOCUMENTED = {0, 1, 2, 3}  # README's table, without the signals (128 + n) and 70 (a bug: never expected)
CLI = [sys.executable, "-m", "explain_sudoku"]  # the console script's module
# every line a command may print on stderr: an error or note of ours, a warning or note on a puzzle, a count
STDERR_LINE = re.compile(r"^(explain-sudoku[ :]|\S.*: (note|warning): |no matching step$|\S.*: \d+ documents$)")


def teardown_module(module: object) -> None:
    target = os.environ.get("PROPERTY_STATS")
    if target:
        path = Path(target)
        doc = json.loads(path.read_text()) if path.exists() else {}
        doc["cli"] = dict(sorted(STATS.items()))
        path.write_text(json.dumps(doc, indent=1, sort_keys=True))


def check(status: int, err: str, allowed: set[int] = DOCUMENTED) -> None:
    """The run's status is documented, and stderr holds one-line messages of ours only."""
    assert status in allowed, (status, err)
    assert "Traceback" not in err, err
    for line in err.splitlines():
        assert STDERR_LINE.match(line), repr(line)
        if " error: " in line or line.startswith("error"):
            assert line.startswith("explain-sudoku: error: "), repr(line)
    STATS[f"exit {status}"] += 1


def run_cli(argv: list[str], cwd: Path, stdin: bytes = b"") -> tuple[int, str, str]:
    """main(argv) in ``cwd`` with ``stdin`` as standard input; an exception fails the property."""
    return run_main(argv, cwd, STATS, "inputs tried", stdin)


# ---- random bad files, every command that reads puzzles ------------------------------------------

BAD_KINDS = ("puzzle", "binary", "latin1 comment", "latin1 line", "long line", "many lines", "nul", "empty",
             "over the limit")


@st.composite
def input_bytes(draw: st.DrawFn) -> tuple[bytes, str]:
    """(the bytes of a file a user might give, its kind)."""
    kind = draw(st.sampled_from(BAD_KINDS))
    if kind == "puzzle":
        text, _ = draw(puzzle_texts(sizes=(4, 9)))
        data = text.encode("utf-8")
    elif kind == "binary":
        data = draw(st.binary(min_size=1, max_size=1500))
    elif kind == "latin1 comment":
        text, _ = draw(puzzle_texts(sizes=(4, 9)))
        data = "# énoncé\n".encode("latin-1") + text.encode("utf-8")
    elif kind == "latin1 line":
        data = (SEED[:9] + "é" + SEED[10:] + "\n").encode("latin-1")
    elif kind == "long line":
        data = draw(st.sampled_from(b"1.x")).to_bytes(1, "big") * draw(st.integers(626, 3000))
    elif kind == "many lines":
        data = b"\n".join(draw(st.lists(st.sampled_from([b"1", b"", b"#", b"....", SEED.encode()[:20]]),
                                        min_size=2, max_size=60)))
    elif kind == "nul":
        data = b"\0" * draw(st.integers(1, 3000))
    elif kind == "empty":
        data = draw(st.sampled_from([b"", b"\n", b"   \n\t\n", b"\xef\xbb\xbf", b"# only a comment\n"]))
    else:
        data = (SEED + "\n").encode() * draw(st.integers(60, 80))  # beyond the small limits set below
    return data, kind


READERS = {
    "explain": ["{f}", "--json-only", "--out", "out", "-q"],
    "solve": ["solve", "{f}", "--method", "bitmask"],
    "hint": ["hint", "{f}"],
    "steps": ["steps", "{f}", "--technique", "x wing,locked candidate", "--seconds", "2"],
    "db build": ["db", "build", "{f}", "--db", "out/d.sqlite", "--jobs", "1", "--no-progress"],
}
# small limits (4 KiB, 64 lines) so that random sizes reach the refusal too
LIMITS = {"MAX_INPUT_BYTES": 4096, "MAX_INPUT_LINES": 64}


@settings(FAST, max_examples=examples(90))
@given(input_bytes(), st.sampled_from(sorted(READERS)), st.booleans())
def test_every_reader_takes_any_file(case: tuple[bytes, str], command: str, stdin: bool) -> None:
    import explainer.model.grid

    data, kind = case
    with tempfile.TemporaryDirectory() as d, mock.patch.multiple(explainer.model.grid, **LIMITS):
        root = Path(d)
        (root / "mine.txt").write_text("a user's file")
        (root / "p.txt").write_bytes(data)
        argv = [a.format(f="-" if stdin else "p.txt") for a in READERS[command]]
        before = snapshot(root, skip=root / "out")
        status, _, err = run_cli(argv, root, stdin=data if stdin else b"")
        check(status, err)
        assert snapshot(root, skip=root / "out") == before, "a file outside the output folder changed"
        STATS[f"file: {kind}"] += 1
        if kind == "over the limit":
            assert status == 2 and err.count("\n") == 1 and "refused (the input limit" in err, err


# ---- random options of every command -------------------------------------------------------------

VALUES = st.one_of(
    st.integers(-10**6, 10**6).map(str), st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["", " ", ",", "nan", "-0", "1e999", "0x10", "-1", "0", "1", "2", "3", "4", "9", "x" * 300,
                     "x wing", "brutal", "bogus", "en", "fr", "de", "colorblind", "dlx", "bitmask", "length",
                     "-length", "7.0-8.5", "20-30", "9-", "easy", "medium", "difficult", "rotational", "jumping"]),
    st.text(max_size=10))
OPTIONS = {
    "solve": (["solve", "p.txt"], ["--method", "--max-nodes"]),
    "generate": (["generate", "--max-tries", "2", "--count", "1"], ["--size", "--seed", "--rating", "--difficulty",
                                                                   "--technique", "--symmetry", "--dig"]),
    "hint": (["hint", "p.txt"], ["--level", "--lang", "--palette", "--puzzle"]),
    "steps": (["steps", "p.txt", "--seconds", "1"], ["--cap", "--seconds", "--technique", "--lang", "--palette"]),
    "db query": (["db", "query", "--db", "{db}"], ["--limit", "--order-by", "--technique", "--difficulty",
                                                   "--rating", "--duration"]),
    "db stats": (["db", "stats", "--db", "{db}"], ["--plot"]),
}


@pytest.fixture(scope="module")
def small_bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from explainer.app.bank.build import build

    d = tmp_path_factory.mktemp("cli-bank")
    (d / "p.txt").write_text("1...4..2..3.2..1\n..3.2..1....4..3\n")
    build(d / "p.txt", d / "p.sqlite", jobs=1, progress=False)
    return d / "p.sqlite"


@settings(FAST, max_examples=examples(120),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(sorted(OPTIONS)), st.data())
def test_random_options_of_every_command(small_bank: Path, command: str, data: st.DataObject) -> None:
    base, names = OPTIONS[command]
    chosen = data.draw(st.lists(st.tuples(st.sampled_from(names), VALUES), min_size=1, max_size=3))
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "p.txt").write_text("1...4..2..3.2..1\n")
        argv = [a.format(db=small_bank) for a in base] + [f"{name}={value}" for name, value in chosen]
        bank_before = small_bank.read_bytes()
        status, _, err = run_cli(argv, root)
        check(status, err)
        if "(see 'explain-sudoku" in err:  # refused when read: before any work, nothing written
            assert status == 2 and sorted(p.name for p in root.iterdir()) == ["p.txt"], err
            STATS["options refused when read"] += 1
        assert small_bank.read_bytes() == bank_before
        assert not small_bank.with_name(small_bank.name + "-wal").exists()


# ---- output folders holding a user's files ---------------------------------------------------------

USER_NAMES = ["notes.txt", "steps.json", "000-INITIAL-GRID.png", "001-X-WING.png", "hint.png", "query.gif",
              "001", "2024", "index.json", ".explain-sudoku-manifest.json", "001_p1_s001_SINGLE-POSITION.png"]
WRITERS = {
    "explain": [SEED, "--no-gif", "--no-frames", "--size", "300", "-q"],
    "steps": ["steps", SEED, "--technique", "x wing"],
    "hint": ["hint", SEED, "--level", "3"],
    "db query": ["db", "query", "--db", "{db}", "--limit", "2"],
}


@settings(FAST, max_examples=examples(40),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(sorted(WRITERS)), st.lists(st.sampled_from(USER_NAMES), max_size=3, unique=True),
       st.booleans())
def test_output_folders_with_user_files(small_bank: Path, command: str, names: list[str], force: bool) -> None:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        out = user_folder(root, names)
        before = snapshot(out)
        argv = [a.format(db=small_bank) for a in WRITERS[command]] + ["--out", "out"] + (["--force"] if force else [])
        first = run_cli(argv, root)
        second = run_cli(argv, root)
        for status, _, err in (first, second):
            check(status, err)
            if names and not force:
                assert status == 3, err
        assert first[0] == second[0], "the same run twice into the same folder gave another status"
        after = snapshot(out)
        assert {k: v for k, v in after.items() if k in before} == before, "a user's file changed"
        STATS["user files kept"] += len(before)
        if (out / MANIFEST).exists() and MANIFEST not in names:
            ours = {k for k in after if k not in before and not k.endswith("/") and k != MANIFEST}
            assert ours == set(json.loads((out / MANIFEST).read_text())["files"])


# ---- runs interrupted at random moments ----------------------------------------------------------

def count_files(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def stored(db: Path) -> int:
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)) as c:
            return int(c.execute("SELECT count(*) FROM puzzles").fetchone()[0])
    except sqlite3.Error:
        return 0


RUNS = {  # what to run, and how far it has got
    "explain frames": ([str(ROOT / "examples" / "easy.txt"), "--out", "out", "--no-gif", "--size", "200", "-q"],
                       lambda out: count_files(out)),
    "explain many": ([str(ROOT / "examples" / "top1465-sample.txt"), "--out", "out", "--json-only", "-q"],
                     lambda out: count_files(out)),
    "steps frames": (["steps", SEED, "--technique", "single position,locked candidate", "--out", "out"],
                     lambda out: count_files(out)),
    "db build": (["db", "build", str(ROOT / "examples" / "top1465-sample.txt"), "--db", "out/b.sqlite", "--jobs",
                  "2", "--no-progress"], lambda out: stored(out / "b.sqlite")),
}
# (signal, to the whole group: Ctrl-C); SIGKILL, to the group, cannot be caught: the next run goes on
SIGNALS = [("SIGINT", True), ("SIGTERM", False), ("SIGHUP", False), ("SIGKILL", True)]


def handles_signals(pid: int) -> bool:
    """The program's own handlers are in place (SIGTERM caught): Python's start-up, before any code
    of ours runs, is left out (a SIGINT there is Python's own "Fatal Python error")."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True  # no /proc: the signal may come at any time
    caught = int(re.search(r"^SigCgt:\s*([0-9a-f]+)", status, re.M).group(1), 16)  # type: ignore[union-attr]
    return bool(caught >> (signal.SIGTERM - 1) & 1)


def interrupted_run(argv: list[str], cwd: Path, progress, reached: int, extra: float, sig: int,
                    group: bool) -> tuple[int, str, bool]:
    """Run the CLI, signal it once ``progress()`` reaches ``reached`` (plus ``extra`` s); the status,
    stderr, and whether the signal was sent before the run ended."""
    p = subprocess.Popen([*CLI, *argv], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    sent = False
    deadline = time.monotonic() + 300
    while p.poll() is None and time.monotonic() < deadline and not handles_signals(p.pid):
        time.sleep(0.005)
    while p.poll() is None and time.monotonic() < deadline:
        if progress() >= reached:
            time.sleep(extra)
            if p.poll() is None:
                (os.killpg if group else os.kill)(p.pid, sig)
                sent = True
            break
        time.sleep(0.02)
    _, err = p.communicate(timeout=300)
    return p.returncode, err, sent


def interrupted_case(name: str, how: tuple[str, bool], reached: int, tenths: int, user: list[str]) -> None:
    """Run ``name``, signal it once its output reached ``reached`` files (plus ``tenths`` / 10 s),
    with the user's files ``user`` in the folder; then the same command again, which succeeds."""
    argv, progress_of = RUNS[name]
    sig = getattr(signal, how[0])
    if name == "db build":
        reached, user = min(reached, 4), []  # five puzzles; the database is the output
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        out = root / "out"
        for rel in user:
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_text(f"{rel}: a user's file")
        before = snapshot(out) if out.exists() else {}
        run_argv = argv + (["--force"] if user else [])
        status, err, sent = interrupted_run(run_argv, root, lambda: progress_of(out), reached + len(user),
                                            tenths / 10, sig, how[1])
        STATS[f"interrupted by {how[0]}" if sent else "ended before the signal"] += 1
        STATS["inputs tried"] += 1
        assert "Traceback" not in err, err
        if status == 128 + sig:
            assert err.count("\n") == 1 and err.startswith(f"explain-sudoku: interrupted by {how[0]}"), err
        elif status == -sig:  # SIGKILL, or in Python's own shut-down after the run: killed the usual way
            assert err == "", err
            STATS["killed" if sig == signal.SIGKILL else "killed while Python ended"] += 1
        else:
            assert status == 0 and err == "", (status, err)
        check_folder(out, before, name, killed=status == -signal.SIGKILL)
        again = subprocess.run([*CLI, *run_argv], cwd=root, capture_output=True, text=True, timeout=600)
        STATS["inputs tried"] += 1
        assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
        check_folder(out, before, name)
        if name == "db build":
            assert stored(out / "b.sqlite") == 5


# One run of each kind, each signal, early and late, with and without a user's files: the default
# run's share (a real process each, two runs a case: seconds). The drawn cases below, with --slow.
@pytest.mark.parametrize(("name", "how", "reached", "tenths", "user"), [
    pytest.param("explain frames", ("SIGTERM", False), 6, 0, ["notes.txt"], id="explain-frames-SIGTERM"),
    pytest.param("explain many", ("SIGINT", True), 2, 3, [], id="explain-many-SIGINT"),
    pytest.param("steps frames", ("SIGHUP", False), 3, 0, ["2024/beach.jpg"], id="steps-frames-SIGHUP"),
    pytest.param("db build", ("SIGINT", True), 1, 0, [], id="db-build-SIGINT"),
    pytest.param("explain frames", ("SIGKILL", True), 5, 0, [], id="explain-frames-SIGKILL"),
    pytest.param("explain many", ("SIGKILL", True), 3, 0, ["notes.txt"], id="explain-many-SIGKILL"),
])
def test_runs_interrupted_at_chosen_moments(name: str, how: tuple[str, bool], reached: int, tenths: int,
                                            user: list[str]) -> None:
    interrupted_case(name, how, reached, tenths, user)


@pytest.mark.slow
@settings(FAST, max_examples=examples(14))
@given(st.sampled_from(sorted(RUNS)), st.sampled_from(SIGNALS), st.integers(0, 40), st.integers(0, 30),
       st.lists(st.sampled_from(["notes.txt", "2024/beach.jpg", ".hidden"]), max_size=2, unique=True))
def test_runs_interrupted_at_random_moments(name: str, how: tuple[str, bool], reached: int, tenths: int,
                                            user: list[str]) -> None:
    interrupted_case(name, how, reached, tenths, user)


def check_folder(out: Path, user: dict[str, bytes], name: str, killed: bool = False) -> None:
    """The user's files are as they were; every other file is ours and listed (a database: just it).
    After SIGKILL the files may be listed as claimed only (CLAIMS), and a database may keep its
    journal (SQLite reads it back at the next open)."""
    now = snapshot(out) if out.exists() else {}
    assert {k: v for k, v in now.items() if k in user} == user, "a user's file changed"
    rest = {k for k in now if k not in user and not k.endswith("/")}
    if name == "db build":
        journal = {"b.sqlite-wal", "b.sqlite-shm", "b.sqlite-journal", "b.sqlite.lock"} if killed else set()
        assert rest <= {"b.sqlite"} | journal, rest  # no -wal, -shm or .lock left behind
        return
    listed = set(json.loads((out / MANIFEST).read_text())["files"]) if MANIFEST in rest else set()
    if killed and CLAIMS in rest:
        listed |= {json.loads(line) for line in (out / CLAIMS).read_text().splitlines() if line.endswith('"')}
        rest.discard(CLAIMS)
    assert not any(k.endswith(".tmp") for k in rest) or killed, rest
    assert {k for k in rest - {MANIFEST} if not k.endswith(".tmp")} <= listed, (rest, listed)
    if not killed:
        assert rest - {MANIFEST} == listed, (rest, listed)
