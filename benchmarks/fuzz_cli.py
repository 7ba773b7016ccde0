"""Bad input, signals, devices and library misuse, each case classified.

    python benchmarks/fuzz_cli.py [--seed N] [--signals K] [--timeout S] [--builds K]

Issue 42's classes are covered too: refused databases, generation ranges,
a full standard error, the main command's inputs and the output folder's
bookkeeping, concurrent builds into one new file (``--builds`` pairs),
process groups of children (``kill -9`` during --video and --pdf) and the
library's flags; the table gives cases, clean and not clean per class.

Every case runs in a fresh folder holding a user's file (``mine.txt``) and
is put in one class:

- ``hang``: not ended within ``--timeout`` seconds (killed then);
- ``traceback``: a Python traceback (or ``KeyboardInterrupt``) on stderr;
- ``changed file``: the user's file changed or went, or a device / FIFO
  given as output is no longer one;
- ``wrong exit code``: a status the README does not give for the case;
- ``unclear message``: a failing run whose stderr is not one line
  ``explain-sudoku: ...`` (or a library error that is not a one-line
  ``PuzzleError``);
- ``clean``: none of those.

Prints the count per class and the cases that are not clean; the exit
status is 1 when any case is not clean.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EX = ROOT / "examples"
CLI = [sys.executable, "-m", "explain_sudoku"]
FOUR = "3..22.....4....."
CLASSES = ("clean", "traceback", "hang", "changed file", "wrong exit code", "unclear message")


@dataclass
class Case:
    name: str
    argv: list[str]
    ok: set[int]                       # the statuses the README gives
    stdin: str | None = ""             # text, or None: closed
    close_stderr: bool = False
    outputs: list[str] = field(default_factory=list)  # devices / FIFOs the case writes to (checked after)
    setup: Callable[[Path], None] | None = None
    group: str = "commands"            # the class of the issue it covers (the table's rows)
    full_stderr: bool = False          # standard error on /dev/full (2>/dev/full)
    check: Callable[[Path, str], str | None] | None = None  # (folder, stdout) -> what is wrong, or None


def bad_files(d: Path) -> None:
    (d / "two_ones.txt").write_text("11" + "." * 14 + "\n")
    (d / "empty.txt").write_text("")
    (d / "binary.txt").write_bytes(bytes(range(256)))
    (d / "long.txt").write_text("1" * 100_000 + "\n")
    (d / "zero.sqlite").write_bytes(b"")
    (d / "folder").mkdir()
    os.mkfifo(d / "fifo")
    os.mkfifo(d / "fifo_out")


def command_cases() -> list[Case]:
    e = str(EX)
    return [
        Case("no argument", [], {2}),
        Case("empty name", [""], {2}),
        Case("missing file", ["nope.txt"], {2}),
        Case("folder as puzzle", ["folder"], {2}),
        Case("two ones", ["two_ones.txt", "--json-only"], {2}),
        Case("empty file", ["empty.txt", "--json-only"], {2}),
        Case("binary file", ["binary.txt", "--json-only"], {2}),
        Case("long line", ["long.txt", "--json-only"], {2}),
        Case("FIFO nothing writes to", ["fifo", "--json-only"], {2}),
        Case("unknown option", ["--bogus"], {2}),
        Case("bad size", [FOUR, "--size", "abc"], {2}),
        Case("bad technique", [FOUR, "--techniques", "nonsense"], {2}),
        Case("empty techniques", ["steps", FOUR, "-t", ""], {2}),
        Case("out is a file", [FOUR, "--out", "mine.txt", "--json-only"], {2, 3}),
        Case("out empty", [FOUR, "--out", "", "--json-only"], {2}),
        Case("good 4x4", [f"{e}/4x4.txt", "--out", "o", "--json-only", "-q"], {0}),
        Case("stdin closed", ["-", "--json-only"], {2}, stdin=None),
        Case("stdin garbage", ["-", "--json-only"], {2}, stdin="hello\n"),
        Case("solve closed stdin", ["solve", "-"], {2}, stdin=None),
        Case("stderr closed", ["nope.txt"], {2}, close_stderr=True),
        Case("solve bad method", ["solve", FOUR, "--method", "x"], {2}),
        Case("solve max nodes 0", ["solve", FOUR, "--max-nodes", "0"], {2}),
        Case("generate size 7", ["generate", "--size", "7"], {2}),
        Case("generate tries 0", ["generate", "--max-tries", "0"], {2}),
        Case("generate time limit", ["generate", "--size", "16", "--difficulty", "medium", "--seed", "1",
                                     "--time-limit", "0.5"], {1}),
        Case("generate difficult", ["generate", "--difficulty", "difficult", "--seed", "1", "--time-limit", "20"],
             {0, 1}),
        Case("hint bad level", ["hint", FOUR, "--level", "abc"], {2}),
        Case("hint no solution", ["hint", "1.3." * 4], {2}),
        Case("db stats missing", ["db", "stats", "--db", "missing.sqlite"], {2}),
        Case("db stats empty name", ["db", "stats", "--db", ""], {2}),
        Case("db stats 0-byte", ["db", "stats", "--db", "zero.sqlite"], {2}),
        Case("db build 0-byte", ["db", "build", f"{e}/4x4.txt", "--db", "zero.sqlite", "--no-progress"], {2}),
        Case("db build user file", ["db", "build", f"{e}/4x4.txt", "--db", "mine.txt", "--no-progress"], {2}),
        Case("db build fifo", ["db", "build", "fifo", "--db", "b.sqlite", "--no-progress"], {2}),
        Case("db migrate missing", ["db", "migrate", "--db", "missing.sqlite"], {2}),
        Case("rate bad", ["rate", "two_ones.txt"], {2}),
        Case("steps bad position", ["steps", "xyz"], {2}),
        Case("list techniques", ["--list-techniques"], {0}),
        Case("solve to /dev/full", ["solve", f"{e}/4x4.txt"], {3}),
    ]


def device_cases() -> list[Case]:
    def bank(d: Path) -> None:
        subprocess.run([*CLI, "db", "build", str(EX / "4x4.txt"), "--db", "b.sqlite", "--no-progress"], cwd=d,
                       capture_output=True, timeout=300, check=True)

    return [
        Case("export to /dev/null", ["db", "export", "--db", "b.sqlite", "-o", "/dev/null", "--force"], {0},
             outputs=["/dev/null"], setup=bank),
        Case("export to /dev/full", ["db", "export", "--db", "b.sqlite", "-o", "/dev/full", "--force"], {3},
             outputs=["/dev/full"], setup=bank),
        Case("export to -", ["db", "export", "--db", "b.sqlite", "-o", "-"], {0}, setup=bank),
        Case("export to a FIFO nobody reads", ["db", "export", "--db", "b.sqlite", "-o", "fifo_out", "--force"],
             {3}, outputs=["fifo_out"], setup=bank),
    ]


def _v4_without_tables(d: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(d / "n.db")
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    (d / "n.db.sha").write_text(hashlib.sha256((d / "n.db").read_bytes()).hexdigest())


def _db_unchanged(d: Path, out: str) -> str | None:
    same = hashlib.sha256((d / "n.db").read_bytes()).hexdigest() == (d / "n.db.sha").read_text()
    extra = sorted(p.name for p in d.iterdir() if p.name.startswith("n.db") and p.name not in ("n.db", "n.db.sha"))
    return None if same and not extra else f"the refused database changed ({extra or 'its bytes'})"


def _lines(n: int) -> Callable[[Path, str], str | None]:
    def check(d: Path, out: str) -> str | None:
        got = len([line for line in out.splitlines() if line.strip()])
        return None if got == n else f"{got} lines on stdout, {n} expected (the work stopped)"
    return check


def _as_with_stderr(*argv: str) -> Callable[[Path, str], str | None]:
    """The standard output the same command gives when its stderr works."""
    def check(d: Path, out: str) -> str | None:
        usual = subprocess.run([*CLI, *argv], cwd=d, capture_output=True, text=True, timeout=300).stdout
        return None if out == usual else "stdout differs from the run with a working stderr (the work stopped)"
    return check


def _folders(*names: str) -> Callable[[Path, str], str | None]:
    def check(d: Path, out: str) -> str | None:
        got = sorted(p.name for p in (d / "o").iterdir() if not p.name.startswith(".")) if (d / "o").is_dir() else []
        return None if got == sorted(names) else f"output {got}, expected {sorted(names)}"
    return check


def _claims(d: Path) -> None:
    (d / "o").mkdir()
    (d / "o" / ".explain-sudoku-manifest.claims").write_text('"mine.txt"\n')


def _claims_kept(d: Path, out: str) -> str | None:
    kept = (d / "o" / ".explain-sudoku-manifest.claims").read_text() == '"mine.txt"\n'
    return None if kept else "the user's claims file was consumed"


def _pencil_marks(d: Path) -> None:
    (d / "pm.txt").write_text("\n".join(" ".join("123456789" if (r + c) % 3 else str(1 + (r * 3 + r // 3 + c) % 9)
                                                 for c in range(9)) for r in range(9)) + "\n")


def issue42_cases() -> list[Case]:
    """Issue 42's classes: refused databases, generation ranges, full standard error, the main
    command's inputs, the output folder's bookkeeping."""
    e = str(EX)
    db = ["--db", "n.db"]
    cases = [Case(f"v4 without tables: {' '.join(a)}", ["db", *a, *db], {2}, setup=_v4_without_tables,
                  check=_db_unchanged, group="refused databases")
             for a in (["build", f"{e}/4x4.txt", "--jobs", "1", "--no-progress"], ["migrate"], ["stats"],
                       ["query", "--technique", "naked single"], ["export", "-o", "-"])]
    for rating in ("0-1", "0.5-1.0", "0-12", "1-1", "1.0-1.1", "12-12", "0-20", "1.0-13", "0.5-2", "abc", "9-8"):
        cases.append(Case(f"generate --rating={rating}", ["generate", f"--rating={rating}", "--seed", "1"], {2},
                          group="generation ranges"))
    for rating in ("1.2-3", "7.0-8.5", "11.8-11.9"):
        cases.append(Case(f"generate --rating={rating} --time-limit 5",
                          ["generate", f"--rating={rating}", "--seed", "1", "--time-limit", "5"], {0, 1},
                          group="generation ranges"))
    cases.append(Case("steps -t 0300x", ["steps", FOUR, "-t", "0300x"], {2}, group="generation ranges"))
    cases.append(Case("--size 10000", [FOUR, "--size", "10000"], {2}, group="generation ranges"))
    full = [
        Case("solve bad.txt 2>/dev/full", ["solve", f"{e}/bad.txt"], {2}, check=_lines(2)),
        Case("rate bad.txt 2>/dev/full", ["rate", f"{e}/bad.txt"], {2}, check=_lines(2)),
        Case("explain bad.txt 2>/dev/full", [f"{e}/bad.txt", "--json-only", "--out", "o"], {2},
             check=_folders("001", "004", "index.json")),
        Case("generate --bogus 2>/dev/full", ["generate", "--bogus"], {2}),
        Case("db build bad.txt 2>/dev/full", ["db", "build", f"{e}/bad.txt", "--db", "b.sqlite", "--jobs", "1"], {2}),
        Case("steps 2>/dev/full", ["steps", FOUR], {0}, check=_as_with_stderr("steps", FOUR)),
    ]
    for c in full:
        c.full_stderr, c.group = True, "full stderr"
    cases += full
    cases += [
        Case("pencil marks to the main command", ["pm.txt", "--json-only", "--out", "o"], {2}, setup=_pencil_marks,
             group="inputs and bookkeeping"),
        Case("a user's claims file", [f"{e}/4x4.txt", "--json-only", "--out", "o", "--force"], {3}, setup=_claims,
             check=_claims_kept, group="inputs and bookkeeping"),
    ]
    return cases


def concurrent_builds(tries: int, timeout: float) -> list[tuple[str, str, str]]:
    """Two ``db build`` into one new file at once, ``tries`` times: one stores, the other stores
    too or is refused (3); the file is never lost."""
    out = []
    for k in range(tries):
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            argv = [*CLI, "db", "build", str(EX / "top1465-sample.txt"), str(EX / "easy.txt"), "--db", "c.sqlite",
                    "--jobs", "1", "--no-progress"]
            a = subprocess.Popen(argv, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            b = subprocess.Popen(argv, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                ra, rb = a.wait(timeout), b.wait(timeout)
            except subprocess.TimeoutExpired:
                a.kill()
                b.kill()
                out.append(("concurrent builds", "hang", f"try {k}: not ended in {timeout:g} s"))
                continue
            errs = (a.stderr.read() if a.stderr else "") + (b.stderr.read() if b.stderr else "")
            name = f"try {k}: statuses {ra}, {rb}"
            if "Traceback" in errs:
                out.append(("concurrent builds", "traceback", name))
            elif not (d / "c.sqlite").is_file():
                out.append(("concurrent builds", "changed file", f"{name}: the database is gone: {errs.strip()}"))
            elif sorted((ra, rb)) not in ([0, 0], [0, 3]):
                out.append(("concurrent builds", "wrong exit code", f"{name}: {errs.strip()}"))
            else:
                out.append(("concurrent builds", "clean", name))
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][:1] not in ("Z", "X")
    except OSError:
        return False


def process_groups(timeout: float) -> list[tuple[str, str, str]]:
    """``kill -9`` of a run's group during --video (ffmpeg must go too, no film under its final
    name) and of its main process alone during --pdf (the drawing workers end, quietly)."""
    runs = [("kill -9 group during --video", ["--video", "film.mp4", "--no-gif"], True),
            ("kill -9 main during --pdf", ["--pdf"], False)]
    out = []
    for name, extra, group in runs:
        if "--video" in extra:
            try:
                import imageio_ffmpeg  # noqa: F401
            except ImportError:
                continue
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            p = subprocess.Popen([*CLI, str(EX / "top1465-sample.txt"), "--out", "o", "-q", *extra], cwd=d,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
            deadline = time.monotonic() + timeout
            kids: list[int] = []
            while time.monotonic() < deadline and p.poll() is None:
                r = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True)
                kids = [int(x) for x in r.stdout.split()]
                if len(kids) >= (1 if group else 2) and (not group or list(d.rglob("*.mp4"))):
                    break
                time.sleep(0.2)
            time.sleep(1.0)
            if p.poll() is not None:
                out.append(("process groups", "clean", f"{name}: (ended before the kill)"))
                continue
            (os.killpg if group else os.kill)(p.pid, signal.SIGKILL)
            p.wait()
            time.sleep(3.0)
            err = p.stderr.read() if p.stderr else ""
            left = [k for k in kids if _alive(k)]
            for k in left:
                os.kill(k, signal.SIGKILL)
            if left:
                out.append(("process groups", "hang", f"{name}: {len(left)} children outlived the run"))
            elif "Traceback" in err:
                out.append(("process groups", "traceback", f"{name}: {err.strip().splitlines()[-1]}"))
            elif err.strip():
                out.append(("process groups", "unclear message", f"{name}: {err!r}"))
            elif list(d.rglob("film.mp4")):
                out.append(("process groups", "changed file", f"{name}: a truncated film under its final name"))
            else:
                out.append(("process groups", "clean", name))
    return out


PROGRESS = re.compile(r"^explain-sudoku generate: (puzzle \d+/\d+, try \d+, \d+ s|seed \d+ .*)\n", re.M)


def one_line_error(err: str) -> bool:
    """One line ``explain-sudoku ...`` (generate's progress and seed notes are not errors)."""
    err = PROGRESS.sub("", err)
    return err.count("\n") == 1 and err.startswith("explain-sudoku")


def digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def kind_of(path: str, cwd: Path) -> int:
    try:
        return stat.S_IFMT(os.stat(Path(cwd, path), follow_symlinks=False).st_mode)
    except OSError:
        return -1


def run_case(case: Case, timeout: float) -> tuple[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "mine.txt").write_text("a user's file\n")
        bad_files(d)
        if case.setup is not None:
            case.setup(d)
        before = digest(d / "mine.txt")
        kinds = {o: kind_of(o, d) for o in case.outputs}
        stdin = subprocess.DEVNULL if case.stdin is None else subprocess.PIPE
        pre = None
        if case.stdin is None or case.close_stderr:  # a closed descriptor, as a shell's <&- or 2>&- gives

            def pre() -> None:
                if case.stdin is None:
                    os.close(0)
                if case.close_stderr:
                    os.close(2)
        stdout: Any = subprocess.PIPE if case.check is not None else subprocess.DEVNULL
        if case.name.endswith("to /dev/full") and case.argv[0] == "solve":
            stdout = open("/dev/full", "w")  # noqa: SIM115 (closed below)
        stderr: Any = subprocess.DEVNULL if case.close_stderr else subprocess.PIPE
        if case.full_stderr:
            stderr = open("/dev/full", "w")  # noqa: SIM115 (closed below)
        p = subprocess.Popen([*CLI, *case.argv], cwd=d, stdin=stdin, stdout=stdout, stderr=stderr, text=True,
                             preexec_fn=pre, start_new_session=True)
        try:
            out, err = p.communicate(None if case.stdin is None else case.stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            return "hang", f"{case.name}: not ended in {timeout:g} s"
        finally:
            for stream in (stdout, stderr):
                if hasattr(stream, "close"):
                    stream.close()
        err = err or ""
        if "Traceback" in err or "KeyboardInterrupt" in err:
            return "traceback", f"{case.name}: {err.strip().splitlines()[-1]}"
        if digest(d / "mine.txt") != before or any(kind_of(o, d) != k for o, k in kinds.items()):
            return "changed file", f"{case.name}: a user's file or an output device changed"
        wrong = case.check(d, out or "") if case.check is not None else None
        if wrong:
            return "changed file", f"{case.name}: {wrong}"
        if p.returncode not in case.ok:
            return "wrong exit code", f"{case.name}: status {p.returncode}, expected {sorted(case.ok)}: {err.strip()}"
        if p.returncode and not (case.close_stderr or case.full_stderr) and not one_line_error(err):
            return "unclear message", f"{case.name}: {err!r}"
        return "clean", case.name


def _catches_sigterm(pid: int) -> bool:
    """The run's own handlers are in place (Python's start-up is left out of the moments)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)))
    except OSError:
        pass
    return True


def signal_cases(rng: random.Random, k: int, timeout: float) -> list[tuple[str, str]]:
    """Runs signalled at seeded moments (after the handlers are in place), then the same command
    again, which must succeed."""
    runs = {
        "explain frames": [str(EX / "easy.txt"), "--out", "out", "--no-gif", "--size", "200", "-q"],
        "explain pdf": [str(EX / "seed.txt"), "--out", "out", "--pdf", "--no-gif", "-q"],
        "db build": ["db", "build", str(EX / "top1465-sample.txt"), "--db", "b.sqlite", "--no-progress"],
    }
    sigs = [("SIGINT", True), ("SIGTERM", False), ("SIGHUP", False), ("SIGTERM", True)]
    results = []
    for _ in range(k):
        name = rng.choice(sorted(runs))
        sig_name, group = rng.choice(sigs)
        moment = round(rng.uniform(0.0, 4.0), 2)
        label = f"{name} {sig_name}{' (group)' if group else ''} at {moment} s"
        sig = getattr(signal, sig_name)
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            p = subprocess.Popen([*CLI, *runs[name]], cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 text=True, start_new_session=True)
            while p.poll() is None and not _catches_sigterm(p.pid):
                time.sleep(0.005)
            time.sleep(moment)
            if p.poll() is None:
                (os.killpg if group else os.kill)(p.pid, sig)
            try:
                _, err = p.communicate(timeout=10)  # a signalled run ends within 10 s
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
                results.append(("hang", f"{label}: not ended 10 s after the signal"))
                continue
            if "Traceback" in err or "KeyboardInterrupt" in err:
                results.append(("traceback", f"{label}: {err.strip().splitlines()[-1]}"))
                continue
            if p.returncode == -sig and not err:  # in Python's own shut-down, after the run: killed the usual way
                pass
            elif p.returncode not in (0, 128 + sig):
                results.append(("wrong exit code", f"{label}: status {p.returncode}: {err.strip()}"))
                continue
            elif p.returncode > 0 and not one_line_error(err):
                results.append(("unclear message", f"{label}: {err!r}"))
                continue
            again = subprocess.run([*CLI, *runs[name]], cwd=d, capture_output=True, text=True, timeout=timeout * 10)
            if again.returncode != 0:
                results.append(("wrong exit code", f"{label}: the next run: status {again.returncode}: "
                                                   f"{again.stderr.strip()}"))
                continue
            results.append(("clean", label))
    return results


def library_cases() -> list[tuple[str, Callable[[], object]]]:
    from explainer import Puzzle
    from explainer.app.bank import PuzzleDB
    from render.export import write_puzzle

    p = Puzzle(FOUR)
    return [
        ("Puzzle(order='bogus')", lambda: Puzzle(FOUR, order="bogus")),
        ("Puzzle(order=1)", lambda: Puzzle(FOUR, order=1)),  # type: ignore[arg-type]
        ("Puzzle(brutal='no')", lambda: Puzzle(FOUR, brutal="no")),  # type: ignore[arg-type]
        ("Puzzle({'a': 1})", lambda: Puzzle({"a": 1})),  # type: ignore[arg-type]
        ("Puzzle(None)", lambda: Puzzle(None)),  # type: ignore[arg-type]
        ("goto(1000)", lambda: p.goto(1000)),
        ("state_before('a')", lambda: p.state_before("a")),  # type: ignore[arg-type]
        ("PuzzleDB(None)", lambda: PuzzleDB(None)),  # type: ignore[arg-type]
        ("PuzzleDB('missing/x.sqlite')", lambda: PuzzleDB(Path(tempfile.gettempdir()) / "nope-dir" / "x.sqlite")),
        ("write_puzzle(p, None)", lambda: write_puzzle(p, None)),  # type: ignore[arg-type]
        ("write_puzzle(None, 'd')", lambda: write_puzzle(None, "d")),  # type: ignore[arg-type]
        ("write_puzzle(p, 'd', 'svg')", lambda: write_puzzle(p, "d", "svg")),  # type: ignore[arg-type]
    ]


def library_flag_cases() -> list[tuple[str, Callable[[], object]]]:
    """Issue 42's library flags and options: each must be a one-line PuzzleError."""
    import explainer
    from explainer import Puzzle
    from explainer.app.allsteps import all_steps
    from explainer.app.bank import PuzzleDB
    from render.export import write_puzzle
    from render.options import RenderOptions

    good = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    cases: list[tuple[str, Callable[[], object]]] = []
    for flag in ("check", "easiest", "brutal", "uniqueness", "profile", "rating_only"):
        for value in ("yes", "x", 1, 0.0):
            cases.append((f"Puzzle({flag}={value!r})", lambda f=flag, v=value: Puzzle(FOUR, **{f: v})))  # type: ignore[misc]
    cases += [
        ("rate(classic='x')", lambda: explainer.rate(good, classic="x")),  # type: ignore[arg-type]
        ("Puzzle(techniques=[])", lambda: Puzzle(FOUR, techniques=[])),
        ("PuzzleDB(create='yes')", lambda: PuzzleDB(Path(tempfile.gettempdir()) / "nope-42.sqlite",
                                                    create="yes")),  # type: ignore[arg-type]
        ("all_steps(no solution)", lambda: all_steps("31.....2..1..3..")),
        ("RenderOptions(size=-1)", lambda: RenderOptions(size=-1)),
        ("RenderOptions(fmt='jpg')", lambda: RenderOptions(fmt="jpg")),
        ("RenderOptions(theme='nope')", lambda: RenderOptions(theme="nope")),  # type: ignore[arg-type]
        ("write_puzzle(bogus=1)", lambda: write_puzzle(Puzzle(FOUR), "d", bogus=1)),
    ]
    return cases


def run_library(cases: list[tuple[str, Callable[[], object]]]) -> list[tuple[str, str]]:
    from explainer import PuzzleError

    out = []
    for name, call in cases:
        try:
            call()
        except PuzzleError as e:
            out.append(("clean", name) if str(e) and "\n" not in str(e) else ("unclear message", f"{name}: {e!r}"))
        except Exception as e:  # noqa: BLE001 (the point: anything that is not a PuzzleError)
            out.append(("traceback", f"{name}: {type(e).__name__}: {e}"))
        else:
            out.append(("wrong exit code", f"{name}: accepted"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--signals", type=int, default=8, help="signalled runs (default 8)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before a case is a hang (default 60)")
    ap.add_argument("--builds", type=int, default=20, help="pairs of concurrent db builds (default 20)")
    args = ap.parse_args(argv)
    start = time.monotonic()
    results = [(c.group, *run_case(c, args.timeout)) for c in command_cases() + device_cases() + issue42_cases()]
    results += [("signals", *r) for r in signal_cases(random.Random(args.seed), args.signals, args.timeout)]
    results += concurrent_builds(args.builds, args.timeout)
    results += process_groups(args.timeout)
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)  # a library call that writes would write here
        try:
            results += [("library", *r) for r in run_library(library_cases())]
            results += [("library flags", *r) for r in run_library(library_flag_cases())]
        finally:
            os.chdir(here)
    counts = Counter(kind for _, kind, _ in results)
    print(f"{len(results)} cases in {time.monotonic() - start:.0f} s: "
          + ", ".join(f"{c} {counts.get(c, 0)}" for c in CLASSES))
    groups = list(dict.fromkeys(g for g, _, _ in results))
    print(f"\n{'class':<24} {'cases':>6} {'clean':>6} {'not clean':>10}")
    for g in groups:
        kinds = [k for gg, k, _ in results if gg == g]
        print(f"{g:<24} {len(kinds):>6} {kinds.count('clean'):>6} {len(kinds) - kinds.count('clean'):>10}")
    for group, kind, what in results:
        if kind != "clean":
            print(f"  {group}: {kind}: {what}")
    return 0 if counts["clean"] == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
