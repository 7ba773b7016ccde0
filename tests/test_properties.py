"""Property tests (issue 14): whatever the input, the CLI and the library never raise an
unexpected exception, every error is one line, and no file outside the output folder changes.

Random grids of every size (4, 9, 16, 25), randomly corrupted (characters, lengths,
clashes, CRLF, BOM, tabs, decoration), random option values, random files of a user in
the output folder. Calls are in-process (``main(argv)``) for speed; the examples are
derandomized so CI is reproducible, and the whole module is bounded to about a minute.

Set PROPERTY_STATS=FILE to get the counts (cases tried, clean errors, tracebacks, user
files touched) written as JSON at the end.
"""
from __future__ import annotations

import json
import os
import random
import tempfile
from collections import Counter
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.helpers import run_main  # noqa: E402

STATS: Counter[str] = Counter()
# PROPERTY_SCALE=10 PROPERTY_RANDOM=1: a longer, freshly random exploration (by hand, not in CI)
SCALE = float(os.environ.get("PROPERTY_SCALE", "1"))
FAST = settings(deadline=None, derandomize=not os.environ.get("PROPERTY_RANDOM"), database=None, print_blob=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
LETTERS = "123456789ABCDEFGHIJKLMNOP"
KNOWN_PREFIXES = ("explain-sudoku", "error:", "interrupted", "no matching step")


def examples(k: int) -> int:
    return max(1, int(k * SCALE))


def teardown_module(module: object) -> None:
    target = os.environ.get("PROPERTY_STATS")
    if target:  # beside what test_properties_cli wrote there (its key "cli")
        path = Path(target)
        doc = json.loads(path.read_text()) if path.exists() else {}
        path.write_text(json.dumps({**doc, **STATS}, indent=1, sort_keys=True))


# ---- grids --------------------------------------------------------------------------------

def solved_grid(n: int, rng: random.Random) -> list[int]:
    """A valid full grid: the base pattern, values relabelled, rows and columns shuffled in bands."""
    m = int(n ** 0.5)
    base = [[(m * (r % m) + r // m + c) % n + 1 for c in range(n)] for r in range(n)]
    labels = list(range(1, n + 1))
    rng.shuffle(labels)

    def order() -> list[int]:
        bands = list(range(m))
        rng.shuffle(bands)
        out = []
        for b in bands:
            inner = list(range(m))
            rng.shuffle(inner)
            out += [b * m + i for i in inner]
        return out

    rows, cols = order(), order()
    return [labels[base[r][c] - 1] for r in rows for c in cols]


@st.composite
def grids(draw: st.DrawFn, sizes: tuple[int, ...] = (4, 9, 16, 25)) -> tuple[int, list[int], list[int]]:
    """(n, puzzle values with blanks, solution)."""
    n = draw(st.sampled_from(sizes))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    solution = solved_grid(n, rng)
    # small grids: any number of blanks; large ones: few, so explaining stays quick
    most = n * n if n <= 9 else n * n // 12
    blanks = draw(st.integers(0, most))
    cells = rng.sample(range(n * n), blanks)
    puzzle = list(solution)
    for c in cells:
        puzzle[c] = 0
    return n, puzzle, solution


def line_of(n: int, values: list[int], empty: str = ".") -> str:
    return "".join(LETTERS[v - 1] if v else empty for v in values)


def layout_of(n: int, values: list[int]) -> str:
    m = int(n ** 0.5)
    rows = []
    for r in range(n):
        if r and r % m == 0:
            rows.append("-" * (n + m - 1))
        row = line_of(n, values[r * n:(r + 1) * n])
        rows.append("|".join(row[b * m:(b + 1) * m] for b in range(m)))
    return "\n".join(rows)


CORRUPTIONS = ("none", "char", "delete", "insert", "clash", "crlf", "bom", "tabs", "layout", "duplicate",
               "unicode", "nul", "empty", "comment")


@st.composite
def puzzle_texts(draw: st.DrawFn, sizes: tuple[int, ...] = (4, 9, 16, 25)) -> tuple[str, str]:
    """(text of a puzzle file, the corruption applied)."""
    n, values, _ = draw(grids(sizes))
    kind = draw(st.sampled_from(CORRUPTIONS))
    text = line_of(n, values)
    if kind == "char":
        i = draw(st.integers(0, len(text) - 1))
        text = text[:i] + draw(st.characters(codec="utf-8", exclude_characters="\n\r")) + text[i + 1:]
    elif kind == "delete":
        i = draw(st.integers(0, len(text) - 1))
        text = text[:i] + text[i + draw(st.integers(1, 3)):]
    elif kind == "insert":
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.text(alphabet=".0123456789ABZ|-+ x", min_size=1, max_size=4)) + text[i:]
    elif kind == "clash":
        filled = [c for c, v in enumerate(values) if v]
        if filled:
            c = draw(st.sampled_from(filled))
            r = c // n
            peer = r * n + (c % n + 1) % n
            values = list(values)
            values[peer] = values[c]
            text = line_of(n, values)
    elif kind == "crlf":
        text = layout_of(n, values).replace("\n", "\r\n")
    elif kind == "bom":
        text = "\ufeff" + text
    elif kind == "tabs":
        text = "\t".join(text[i:i + n] for i in range(0, len(text), n))
    elif kind == "layout":
        text = layout_of(n, values)
    elif kind == "duplicate":
        text = text + "\n" + text
    elif kind == "unicode":
        text = text[:3] + "é½漢" + text[3:]
    elif kind == "nul":
        text = text[:5] + "\x00" + text[5:]
    elif kind == "empty":
        text = draw(st.sampled_from(["", "\n", "   \n\t\n", "\ufeff"]))
    elif kind == "comment":
        text = "# a comment\n" + text + "\n# another"
    return text + draw(st.sampled_from(["", "\n", "\r\n", "\n\n"])), kind


# ---- running the CLI in a sandbox -----------------------------------------------------------

def user_folder(root: Path, names: list[str]) -> Path:
    """``root/out`` holding a user's files: a file per name, a folder with a photo for a
    number (a name the output could use too)."""
    out = root / "out"
    out.mkdir()
    for k, name in enumerate(names):
        if name.isdigit():
            (out / name).mkdir()
            (out / name / "beach.jpg").write_bytes(b"jpg %d" % k)
        else:
            (out / name).write_bytes(b"user %d" % k)
    return out


def snapshot(root: Path, skip: Path | None = None) -> dict[str, bytes]:
    out = {}
    for p in sorted(root.rglob("*")):
        if skip is not None and (p == skip or skip in p.parents):
            continue
        if p.is_file() and not p.is_symlink():
            out[p.relative_to(root).as_posix()] = p.read_bytes()
        elif p.is_dir():
            out[p.relative_to(root).as_posix() + "/"] = b""
    return out


def run_cli(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """main(argv) in ``cwd``; an exception is a failure of the property (counted, re-raised)."""
    return run_main(argv, cwd, STATS, "cases")


def check_errors(status: int, err: str) -> None:
    assert isinstance(status, int) and status in (0, 1, 2, 3), status
    assert "Traceback" not in err, err
    for line in err.splitlines():
        assert line.strip(), repr(err)  # no blank lines, no multi-line messages
        assert line.startswith(KNOWN_PREFIXES) or ": " in line, repr(line)  # "where: what"
    if status:
        STATS["clean errors"] += 1


def user_files(root: Path) -> None:
    """A user's files around and inside the output folder, some at the names we write."""
    (root / "mine").mkdir()
    (root / "mine" / "notes.txt").write_text("notes")
    (root / "steps.json").write_text("a user's steps.json beside the output folder")


# ---- properties -----------------------------------------------------------------------------

@settings(FAST, max_examples=examples(300))
@given(puzzle_texts())
def test_library_parse_and_explain_never_raise_unexpected(case: tuple[str, str]) -> None:
    from explainer import PuzzleError, parse_grid
    from explainer.model.grid import split_sources

    text, _ = case
    STATS["cases"] += 1
    try:
        sources = split_sources(text, "f")
    except PuzzleError as e:
        assert "\n" not in str(e)
        STATS["clean errors"] += 1
        return
    for src in sources:
        try:
            grid = parse_grid(src.text, src.where)
        except PuzzleError as e:
            assert "\n" not in str(e), str(e)
            STATS["clean errors"] += 1
            continue
        assert grid.n in (4, 9, 16, 25)


@settings(FAST, max_examples=examples(120))
@given(puzzle_texts(sizes=(4, 9, 16, 25)), st.booleans())
def test_explain_cli_any_puzzle_file(case: tuple[str, str], force: bool) -> None:
    text, _ = case
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        user_files(root)
        (root / "p.txt").write_text(text, encoding="utf-8", newline="")
        before = snapshot(root)
        argv = ["p.txt", "--json-only", "--out", "out", "-q"] + (["--force"] if force else [])
        status, _, err = run_cli(argv, root)
        check_errors(status, err)
        after = snapshot(root, skip=root / "out")
        assert after == before, "a file outside the output folder changed"
        STATS["user files checked"] += len(before)


@settings(FAST, max_examples=examples(80))
@given(puzzle_texts(sizes=(4, 9, 16, 25)))
def test_solve_cli_lines_up_and_never_raises(case: tuple[str, str]) -> None:
    text, _ = case
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "p.txt").write_text(text, encoding="utf-8", newline="")
        status, out, err = run_cli(["solve", "p.txt", "--method", "bitmask"], root)
        check_errors(status, err)
        assert snapshot(root) == {"p.txt": text.encode("utf-8")}


NAMES = ["steps.json", "000-INITIAL-GRID.png", "001-SINGLE-POSITION.png", "explanation.gif", "EXPLANATIONS.png",
         "index.json", "index.html", "001", "2024", "holiday.gif", "notes.txt", ".explain-sudoku-manifest.json"]


# a good 4×4, one without a solution, one with two 2s in a column (bad input is refused before
# the output folder is looked at: status 2, the folder as it was)
OUTPUT_PUZZLES = {"3..22.....4.....": 0, "1...4..2..3.2..1": 2, "12..34....1..2.3": 2}


@settings(FAST, max_examples=examples(50))
@given(st.lists(st.sampled_from(NAMES), max_size=4, unique=True), st.booleans(), st.booleans(),
       st.sampled_from(["--json-only", "--no-gif", "--no-frames"]), st.sampled_from(sorted(OUTPUT_PUZZLES)))
def test_output_folder_never_touches_user_files(names: list[str], force: bool, twice: bool, what: str,
                                                puzzle: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        out = user_folder(root, names)
        before = snapshot(out)
        for _ in range(2 if twice else 1):
            argv = [puzzle, "--out", "out", "-q", what, "--size", "120"] + (["--force"] if force else [])
            status, _, err = run_cli(argv, root)
            check_errors(status, err)
            if OUTPUT_PUZZLES[puzzle]:
                assert status == 2, err
            elif names and not force:
                assert status == 3, err
        after = snapshot(out)
        touched = [k for k, v in before.items() if after.get(k) != v]
        STATS["user files checked"] += len(before)
        STATS["user files touched"] += len(touched)
        assert not touched, touched


OPTION_VALUES = st.one_of(
    st.integers(-10**12, 10**12).map(str), st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["", " ", ",", ",,,", "nan", "-0", "1e999", "0x10", "default", "colorblind", "brutal",
                     "singles", "png", "svg", "fr", "en", "locked-candidate,brutal", "x" * 300, "-1"]),
    st.text(max_size=12))
OPTIONS = ["--dpi", "--size", "--gif-loop", "--gif-duration", "--gif-hold", "--palette", "--only", "--techniques",
           "--lang", "--format"]


@settings(FAST, max_examples=examples(150))
@given(st.lists(st.tuples(st.sampled_from(OPTIONS), OPTION_VALUES), min_size=1, max_size=3))
def test_random_option_values_are_checked_at_parse_time(options: list[tuple[str, str]]) -> None:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        argv = ["1...4..2..3.2..1", "--out", "out", "-q", "--no-gif"]
        for name, value in options:
            argv += [f"{name}={value}"]
        draws = any(n in ("--size", "--dpi") for n, _ in options)
        if not draws:
            argv.append("--json-only")
        else:
            argv += ["--no-frames"]  # contact sheet only: small and quick
        status, _, err = run_cli(argv, root)
        check_errors(status, err)
        if status == 2:
            assert not (root / "out").exists(), "bad options must fail before any output"
        assert set(p.name for p in root.iterdir()) <= {"out"}


@settings(FAST, max_examples=examples(300))
@given(st.dictionaries(
    st.sampled_from(["frames", "contact", "gif", "html", "fmt", "theme", "lang", "dpi", "size", "group_singles",
                     "only", "gif_duration", "gif_hold", "gif_loop", "gif_width", "columns", "workers", "bogus"]),
    st.one_of(st.none(), st.booleans(), st.integers(-10**9, 10**9), st.floats(), st.text(max_size=8),
              st.lists(st.text(max_size=5), max_size=2)), max_size=4))
def test_render_options_raise_only_option_errors(values: dict[str, object]) -> None:
    from render.options import OptionError, RenderOptions

    STATS["cases"] += 1
    try:
        opts = RenderOptions.from_mapping(values)
    except OptionError as e:
        assert "\n" not in str(e)
        STATS["clean errors"] += 1
        return
    assert opts.fmt in ("png", "svg") and opts.lang in ("en", "fr")


@settings(FAST, max_examples=examples(100))
@given(grids(sizes=(4, 9, 16)), st.integers(0, 2**32 - 1), st.sampled_from(["remove", "add-value", "both", "none"]),
       st.sampled_from(["line", "layout"]))
def test_hint_names_the_mistake_or_hints(grid: tuple[int, list[int], list[int]], seed: int, mistake: str,
                                         form: str) -> None:
    from explainer.app.hints.pencilmarks import format_pencilmarks
    from explainer.core.solver import count_solutions
    from explainer.model.grid import Grid, PuzzleError
    from explainer.model.state import State

    n, values, solution = grid
    unique = count_solutions(Grid(n, tuple(values))) == 1  # else the marks may pick another solution
    rng = random.Random(seed)
    state = State.from_grid(Grid(n, tuple(values)))
    removed_true = False
    empty = [c for c in range(n * n) if not state.values[c] and len(state.candidates(c)) > 1]
    if mistake in ("remove", "both") and empty:
        c = rng.choice(empty)
        state.eliminate(c, solution[c])
        removed_true = True
    if mistake in ("add-value", "both") and empty:
        c = rng.choice(empty)
        wrong = [v for v in state.candidates(c) if v != solution[c]]
        if wrong and state.has(c, wrong[0]):
            try:
                state.place(c, wrong[0])
            except Exception:
                pass
    try:
        text = state.to_candidates_line() if form == "line" else format_pencilmarks(state)
    except PuzzleError:
        return
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "g.txt").write_text(text + "\n")
        status, out, err = run_cli(["hint", "g.txt", "--level", "2"], root)
        check_errors(status, err)
        if removed_true and status == 0 and unique:
            raise AssertionError(f"a hint was given although a true candidate was removed: {out}")
        if status:
            assert out == ""
        assert sorted(p.name for p in root.iterdir()) == ["g.txt"]


DB_ARGS = st.lists(st.sampled_from([
    ["--limit", "-1"], ["--limit", "2"], ["--limit", "x"], ["--order-by", "-length"], ["--order-by", "width"],
    ["--duration", "-1"], ["--duration", "0"], ["--duration", "1e9"], ["--duration", "0.5"], ["--gif"],
    ["--technique", "bogus"], ["--technique", "locked candidate"], ["--difficulty", "hard"], ["--out", "q"],
    ["--force"]]), max_size=4)


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from explainer.app.bank.build import build

    d = tmp_path_factory.mktemp("propdb")
    f = d / "p.txt"
    f.write_text("1...4..2..3.2..1\n..3.2..1....4..3\n")
    db = d / "p.sqlite"
    build(f, db, jobs=1, progress=False)
    return db


@settings(FAST, max_examples=examples(60),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(["query", "stats", "export"]), DB_ARGS)
def test_db_commands_never_raise(small_db: Path, command: str, extra: list[list[str]]) -> None:
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "keep.txt").write_text("keep")
        argv = ["db", command, "--db", str(small_db)]
        if command == "query":
            argv += [x for part in extra for x in part]
        elif command == "export":
            argv += ["-o", "keep.txt"] if len(extra) % 2 else ["-o", "e.jsonl"]
        before = small_db.read_bytes()
        status, _, err = run_cli(argv, root, )
        check_errors(status, err)
        assert (root / "keep.txt").read_text() == "keep"
        assert small_db.read_bytes() == before
