"""Bad input, signals, devices and library misuse, each case classified.

    python benchmarks/fuzz_cli.py [--seed N] [--signals K] [--timeout S]

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


def one_line_error(err: str) -> bool:
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
        stdout = subprocess.DEVNULL
        if case.name.endswith("to /dev/full") and case.argv[0] == "solve":
            stdout = open("/dev/full", "w")  # noqa: SIM115 (closed below)
        p = subprocess.Popen([*CLI, *case.argv], cwd=d, stdin=stdin, stdout=stdout,
                             stderr=subprocess.DEVNULL if case.close_stderr else subprocess.PIPE, text=True,
                             preexec_fn=pre, start_new_session=True)
        try:
            _, err = p.communicate(None if case.stdin is None else case.stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            return "hang", f"{case.name}: not ended in {timeout:g} s"
        finally:
            if stdout is not subprocess.DEVNULL:
                stdout.close()
        err = err or ""
        if "Traceback" in err or "KeyboardInterrupt" in err:
            return "traceback", f"{case.name}: {err.strip().splitlines()[-1]}"
        if digest(d / "mine.txt") != before or any(kind_of(o, d) != k for o, k in kinds.items()):
            return "changed file", f"{case.name}: a user's file or an output device changed"
        if p.returncode not in case.ok:
            return "wrong exit code", f"{case.name}: status {p.returncode}, expected {sorted(case.ok)}: {err.strip()}"
        if p.returncode and not case.close_stderr and not one_line_error(err):
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


def run_library() -> list[tuple[str, str]]:
    from explainer import PuzzleError

    out = []
    for name, call in library_cases():
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
    args = ap.parse_args(argv)
    start = time.monotonic()
    results = [run_case(c, args.timeout) for c in command_cases() + device_cases()]
    results += signal_cases(random.Random(args.seed), args.signals, args.timeout)
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)  # a library call that writes would write here
        try:
            results += run_library()
        finally:
            os.chdir(here)
    counts = Counter(kind for kind, _ in results)
    print(f"{len(results)} cases in {time.monotonic() - start:.0f} s: "
          + ", ".join(f"{c} {counts.get(c, 0)}" for c in CLASSES))
    for kind, what in results:
        if kind != "clean":
            print(f"  {kind}: {what}")
    return 0 if counts["clean"] == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
