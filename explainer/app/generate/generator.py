"""Puzzle generator (seed 003): fill a grid, dig holes, hide the pattern.

1. A random full grid: the boxes on the diagonal share no row or column, so
   each is filled with a random permutation; the rest is completed by the
   exact-cover search with random branching (seeded, so reproducible).
2. Digging: cells are visited in one of seed 003's four orders and a cell
   (with its symmetric partner) stays empty only while the solution stays
   unique. The check asks "is there a solution where the dug cell holds
   another value?" (``forbid``), cheaper than counting to two.
3. Symmetry-preserving shuffles (band/stack and row/column-in-band
   permutations, reflections, transposition, relabelling) so the dig
   order's pattern does not show; the symmetry of the givens is kept.
4. A target (difficulty class, technique) is a predicate ``accept(grid)``;
   the engine-based ones import ``explainer.engine`` only when used.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

from explainer.core.solver import SearchLimit, solve_bitmask
from explainer.model.grid import Grid, geometry
from explainer.model.technique import DIFFICULTIES as DIFFICULTIES  # re-exported for the CLI

DIG_ORDERS = ("random", "jumping", "s-wander", "left-right")
SYMMETRIES = ("none", "rotational", "mirror")

Accept = Callable[[Grid], bool]


class GenerationFailed(Exception):
    """No puzzle met the target within ``max_tries`` attempts."""

    def __init__(self, tries: int, target: str) -> None:
        super().__init__(f"no puzzle met the target ({target}) in {tries} tries; "
                         "raise --max-tries or choose an easier target")
        self.tries = tries


# ---- full grid ----------------------------------------------------------------------

def random_full_grid(n: int, rng: random.Random) -> list[int]:
    """A random complete grid of size n (values row by row)."""
    geo = geometry(n)
    while True:
        values = [0] * geo.ncells
        for k in range(geo.m):  # diagonal boxes are independent of each other
            perm = rng.sample(range(1, n + 1), n)
            for v, c in zip(perm, geo.houses[2 * n + k * geo.m + k], strict=True):
                values[c] = v
        try:
            solutions = solve_bitmask(n, values, 1, rng=rng, max_nodes=50 * n * n)
        except SearchLimit:
            continue  # an unlucky start: draw another
        if solutions:
            return solutions[0]


# ---- dig orders -------------------------------------------------------------------------

def s_path(n: int) -> list[int]:
    """Row by row, left to right then right to left (a boustrophedon)."""
    return [r * n + (c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]


def dig_order(n: int, kind: str, rng: random.Random) -> list[int]:
    """The cells in the order seed 003 visits them to dig.

    - random: anywhere in the grid;
    - jumping: along the S path skipping every other cell, then the skipped ones;
    - s-wander: along the S path;
    - left-right: left to right, then down.
    """
    if kind == "random":
        cells = list(range(n * n))
        rng.shuffle(cells)
        return cells
    if kind == "jumping":
        path = s_path(n)
        return path[0::2] + path[1::2]
    if kind == "s-wander":
        return s_path(n)
    if kind == "left-right":
        return list(range(n * n))
    raise ValueError(f"unknown dig order {kind!r} (choose from {', '.join(DIG_ORDERS)})")


def partner(n: int, symmetry: str, c: int) -> int:
    """The cell that must be dug together with c to keep the symmetry."""
    r, k = divmod(c, n)
    if symmetry == "none":
        return c
    if symmetry == "rotational":  # half-turn about the centre
        return (n - 1 - r) * n + (n - 1 - k)
    if symmetry == "mirror":  # left-right reflection
        return r * n + (n - 1 - k)
    raise ValueError(f"unknown symmetry {symmetry!r} (choose from {', '.join(SYMMETRIES)})")


def dig_budget(n: int) -> int:
    """Search nodes allowed for one uniqueness check while digging.

    A check over budget counts as "not unique" and the cell keeps its given:
    always safe, and it bounds the time on sparse 16×16 and 25×25 grids at
    the cost of a few extra givens.
    """
    return {4: 100, 9: 200, 16: 60, 25: 12}.get(n, 12)


def stays_unique(n: int, values: list[int], solution: Sequence[int], dug: Sequence[int],
                 budget: int | None | Literal["size"] = "size") -> bool:
    """True if ``values`` (``dug`` cells already emptied) provably has only ``solution``.

    Every other solution differs from it in some dug cell; look for one
    differing first in dug cell i (the earlier ones kept), one search each.
    ``budget``: search nodes per check, "size" for ``dig_budget(n)``, None
    for an exact answer (no limit).
    """
    nodes = dig_budget(n) if isinstance(budget, str) else budget
    trial = list(values)
    for i, c in enumerate(dug):
        for earlier in dug[:i]:
            trial[earlier] = solution[earlier]
        trial[c] = 0
        try:
            if solve_bitmask(n, trial, 1, forbid=((c, solution[c]),), max_nodes=nodes):
                return False
        except SearchLimit:
            return False
    return True


def dig_values(solution: Sequence[int], n: int, order: Sequence[int], symmetry: str = "none") -> list[int]:
    """Empty cells in ``order`` (with partners) while the solution stays unique."""
    values = list(solution)
    for c in order:
        if not values[c]:
            continue
        cells = sorted({c, partner(n, symmetry, c)})
        for x in cells:
            values[x] = 0
        if not stays_unique(n, values, solution, cells):
            for x in cells:
                values[x] = solution[x]
    return values


# ---- symmetry-preserving shuffles ------------------------------------------------------

def _mirrored_perm(k: int, rng: random.Random) -> list[int]:
    """A random permutation p of 0..k-1 with p(k-1-i) = k-1-p(i)."""
    p = [0] * k
    pairs = list(range(k // 2))
    rng.shuffle(pairs)
    for i, j in enumerate(pairs):
        a, b = (j, k - 1 - j) if rng.random() < 0.5 else (k - 1 - j, j)
        p[i], p[k - 1 - i] = a, b
    if k % 2:
        p[k // 2] = k // 2
    return p


def line_permutation(m: int, rng: random.Random, mirrored: bool) -> list[int]:
    """New index of each of the n = m² rows (or columns): bands moved, lines moved in bands.

    ``mirrored``: line n-1-i goes where line i goes, reflected, so a
    symmetry about the centre line is kept.
    """
    n = m * m
    if not mirrored:
        bands = rng.sample(range(m), m)
        inner = [rng.sample(range(m), m) for _ in range(m)]
    else:
        bands = _mirrored_perm(m, rng)
        inner = [[0] * m for _ in range(m)]
        for b in range(m):
            if b < m - 1 - b:
                inner[b] = rng.sample(range(m), m)
                inner[m - 1 - b] = [m - 1 - inner[b][m - 1 - i] for i in range(m)]
            elif b == m - 1 - b:
                inner[b] = _mirrored_perm(m, rng)
    return [bands[i // m] * m + inner[i // m][i % m] for i in range(n)]


def shuffle_grid(values: Sequence[int], n: int, symmetry: str, rng: random.Random) -> list[int]:
    """The same puzzle up to isomorphism, with its symmetry kept.

    none: any band/stack/line permutation, transposition, relabelling.
    rotational: rows and columns both mirrored permutations (this includes
    the half turn and both reflections); transposition allowed.
    mirror (left-right): columns mirrored, rows free; no transposition
    (it would turn a left-right mirror into a top-bottom one).
    """
    geo = geometry(n)
    rows = line_permutation(geo.m, rng, mirrored=symmetry == "rotational")
    cols = line_permutation(geo.m, rng, mirrored=symmetry in ("rotational", "mirror"))
    transpose = symmetry != "mirror" and rng.random() < 0.5
    labels = [0] + rng.sample(range(1, n + 1), n)
    out = [0] * (n * n)
    for c, v in enumerate(values):
        r, k = divmod(c, n)
        if transpose:
            r, k = k, r
        out[rows[r] * n + cols[k]] = labels[v]
    return out


def has_symmetry(values: Sequence[int], n: int, symmetry: str) -> bool:
    """Whether the pattern of givens has ``symmetry``."""
    return all(bool(values[c]) == bool(values[partner(n, symmetry, c)]) for c in range(n * n))


# ---- generation ---------------------------------------------------------------------------

dig = dig_values  # the name the rest of the package uses


def make_puzzle(n: int, rng: random.Random, dig_kind: str = "random", symmetry: str = "none") -> Grid:
    """One puzzle with a unique solution, before any target check."""
    solution = random_full_grid(n, rng)
    values = dig_values(solution, n, dig_order(n, dig_kind, rng), symmetry)
    return Grid(n, tuple(shuffle_grid(values, n, symmetry, rng)))


# ---- hardening: a seeded local search toward a target (9×9) ------------------------------

#: Sizes where ``generate`` hardens toward a goal; elsewhere it draws puzzles until one is accepted
#: (4×4 puzzles are too small to climb, 16×16 and 25×25 too slow to minimise and explain per move).
HARDEN_SIZES = (9,)
#: Tries without a better score before the search starts again from a new puzzle.
RESTART_AFTER = 200
#: Consecutive moves that break uniqueness before the search starts again (a safety net).
MAX_REJECTS = 2000

Score = tuple[Any, ...]
Goal = Callable[[Grid], "tuple[bool, Score]"]


def is_unique(n: int, values: Sequence[int]) -> bool:
    """The full check: the bitmask search finds exactly one solution."""
    return len(solve_bitmask(n, values, 2)) == 1


def _group(n: int, symmetry: str, c: int) -> list[int]:
    return sorted({c, partner(n, symmetry, c)})


def _representatives(n: int, symmetry: str, values: Sequence[int], given: bool) -> list[int]:
    """One cell per symmetry group, of the groups that are all given (or all empty)."""
    return [c for c in range(n * n) if c <= partner(n, symmetry, c) and bool(values[c]) == given]


def minimise(values: Sequence[int], solution: Sequence[int], n: int, symmetry: str, rng: random.Random,
             keep: Sequence[int] = ()) -> list[int]:
    """Remove givens (with partners), in a random order, while the solution stays unique.

    The checks are exact (no node budget), so the result is minimal: no
    group of givens outside ``keep`` can go.
    """
    out = list(values)
    cells = [c for c in _representatives(n, symmetry, out, True) if c not in keep]
    rng.shuffle(cells)
    for c in cells:
        group = _group(n, symmetry, c)
        for x in group:
            out[x] = 0
        if not stays_unique(n, out, solution, group, budget=None):
            for x in group:
                out[x] = solution[x]
    return out


def harden(solution: Sequence[int], values: Sequence[int], n: int, goal: Goal, rng: random.Random, *,
           symmetry: str = "none", max_tries: int = 2000, first_try: int = 1,
           on_try: Callable[[int], None] | None = None) -> tuple[Grid | None, int]:
    """Hill climbing (sideways moves allowed) from ``values`` toward ``goal``.

    A move takes out one group of givens (a cell and its symmetric partner)
    and puts in others (values from ``solution``) where a second solution
    differs from ``solution``, until unique, then re-minimises; a
    unique result whose score does not drop replaces the current puzzle.
    Each candidate the goal evaluates is one try (numbered from
    ``first_try``). Returns (the accepted puzzle or None, the next try
    number); None when ``max_tries`` is reached or after ``RESTART_AFTER``
    tries without a better score (the caller then starts again).
    """
    current = minimise(values, solution, n, symmetry, rng)
    attempt = first_try
    if attempt > max_tries:
        return None, attempt

    def judge(cells: list[int]) -> tuple[bool, Score]:
        """One try: the goal's verdict on these givens (tries are counted and reported)."""
        nonlocal attempt
        if on_try is not None:
            on_try(attempt)
        verdict = goal(Grid(n, tuple(cells)))
        attempt += 1
        return verdict

    ok, score = judge(current)
    if ok:
        return Grid(n, tuple(current)), attempt
    best, since_best, rejects = score, 0, 0
    while attempt <= max_tries and since_best < RESTART_AFTER and rejects < MAX_REJECTS:
        givens = _representatives(n, symmetry, current, True)
        if not givens:
            break
        out = rng.choice(givens)
        candidate = list(current)
        removed = _group(n, symmetry, out)
        for x in removed:
            candidate[x] = 0
        added: list[int] = []
        for _ in range(4):  # put back givens where another solution differs, until unique
            other = next((s for s in solve_bitmask(n, candidate, 2) if list(s) != list(solution)), None)
            if other is None:
                break
            differ = [c for c in range(n * n) if other[c] != solution[c] and c not in removed]
            if not differ:
                break
            group = _group(n, symmetry, rng.choice(differ))
            for x in group:
                candidate[x] = solution[x]
            added += group
        if not added or not is_unique(n, candidate):
            rejects += 1
            continue
        rejects = 0
        candidate = minimise(candidate, solution, n, symmetry, rng, keep=added)
        ok, new_score = judge(candidate)
        if ok:
            return Grid(n, tuple(candidate)), attempt
        since_best += 1
        if new_score >= score:  # better or sideways
            current, score = candidate, new_score
            if new_score > best:
                best, since_best = new_score, 0
    return None, attempt


def generate(n: int = 9, seed: int | random.Random = 0, *, dig: str = "random", symmetry: str = "none",
             accept: Accept | None = None, max_tries: int = 100, target: str = "any",
             on_try: Callable[[int], None] | None = None, goal: Goal | None = None) -> Grid:
    """A puzzle that ``accept`` takes; GenerationFailed after ``max_tries`` refusals.

    ``seed`` is an int or a ``random.Random`` (to continue one sequence);
    ``on_try(k)`` is called before attempt k (progress display).

    ``goal`` (grid -> (accepted, score), see ``engine_goal``) replaces
    ``accept``: on the sizes in ``HARDEN_SIZES`` the puzzle is hardened by
    a local search that climbs the score (``harden``), each evaluated
    candidate counting as a try; on the other sizes puzzles are drawn until
    one is accepted, as with ``accept``.
    """
    geometry(n)  # bad settings fail here, before any work
    dig_order(n, dig, random.Random(0))
    partner(n, symmetry, 0)
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if goal is not None and n in HARDEN_SIZES:
        attempt = 1
        while attempt <= max_tries:
            solution = random_full_grid(n, rng)
            values = dig_values(solution, n, dig_order(n, dig, rng), symmetry)
            mix = rng.getrandbits(64)  # the same shuffle for the puzzle and its solution
            values = shuffle_grid(values, n, symmetry, random.Random(mix))
            solution = shuffle_grid(solution, n, symmetry, random.Random(mix))
            found, attempt = harden(solution, values, n, goal, rng, symmetry=symmetry, max_tries=max_tries,
                                    first_try=attempt, on_try=on_try)
            if found is not None:
                return found
        raise GenerationFailed(max_tries, target)
    if goal is not None:
        accept = lambda grid: goal(grid)[0]  # noqa: E731
    for attempt in range(1, max_tries + 1):
        if on_try is not None:
            on_try(attempt)
        puzzle = make_puzzle(n, rng, dig, symmetry)
        if accept is None or accept(puzzle):
            return puzzle
    raise GenerationFailed(max_tries, target)


def generate_many(n: int, count: int, seed: int, **options: Any) -> Iterator[Grid]:
    """``count`` puzzles from one seeded sequence: the same seed gives the same puzzles.

    ``options`` are those of ``generate`` (dig, symmetry, accept, ...).
    """
    rng = random.Random(seed)
    for _ in range(count):
        yield generate(n, rng, **options)


# ---- engine-based targets (lazy: explainer.engine is optional here) --------------------------

def _normal(name: str) -> str:
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


def _er_distance(er: float, rating: tuple[float, float]) -> float:
    """How far ER lies outside the wanted (low, high) range; 0 inside."""
    low, high = rating
    return round(max(low - er, er - high, 0.0), 3)


def engine_target(difficulty: str | None = None, technique: str | None = None,
                  rating: tuple[float, float] | None = None) -> Accept | None:
    """A predicate checking the engine's verdict, or None if there is no target.

    difficulty: the engine's class must be this one. technique: the
    explanation uses it at least once and never guesses (no trial, trial
    lucky or brutal step). rating: (low, high), the puzzle's ER lies in it.
    """
    if difficulty is None and technique is None and rating is None:
        return None
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (choose from {', '.join(DIFFICULTIES)})")
    wanted = _normal(technique) if technique else None

    def accept(grid: Grid) -> bool:
        from explainer.api import Puzzle  # the engine is heavy and optional for plain generation

        puzzle = Puzzle(grid)
        if difficulty is not None and puzzle.difficulty != difficulty:
            return False
        if rating is not None and _er_distance(puzzle.rating.er, rating):
            return False
        if wanted is not None:
            used = {_normal(name): count for name, count in puzzle.statistics.items() if count}
            from techniques import guessing_names

            if wanted not in used or any(g in used for g in guessing_names()):
                return False
        return True

    return accept


def explanation_score(statistics: dict[str, int], difficulty: str) -> tuple[int, float, float]:
    """(rank of the ``difficulty`` class, hardest step's weight, sum of the weights of the
    non-single steps)."""
    from explainer.model.technique import DIFFICULTIES as RANKS
    from techniques import single_names, weights

    w, singles = weights(), single_names()
    hard = [(w.get(name, 0.0), count) for name, count in statistics.items()
            if count and name not in singles]
    top = max((x for x, _ in hard), default=0.0)
    return RANKS.index(difficulty), top, round(sum(w * k for w, k in hard), 3)


def engine_goal(difficulty: str | None = None, technique: str | None = None,
                rating: tuple[float, float] | None = None,
                techniques: tuple[str, ...] | None = None) -> Goal | None:
    """grid -> (accepted, score) for ``harden``; None when there is nothing to climb.

    Accepted exactly as ``engine_target`` accepts. The score (higher is
    closer) comes from one run of the engine: for a difficulty, the
    distance of the class to the wanted one, then ``explanation_score``;
    for a technique, whether it is used without guessing, how often, then
    the lack of guessing and the explanation's weight; for an ER range
    (low, high), how far ER lies outside it. The easy target alone has no
    goal: most random puzzles are easy already. ``techniques``: the engine's
    technique set (default all; with forcing chains no puzzle we know needs
    brutal, so "difficult" is reachable only without them).
    """
    if technique is None and difficulty in (None, "easy") and rating is None:
        return None
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (choose from {', '.join(DIFFICULTIES)})")
    wanted = _normal(technique) if technique else None
    want_rank = DIFFICULTIES.index(difficulty) if difficulty else None

    from techniques import guessing_names

    guessing_kinds = guessing_names()

    def goal(grid: Grid) -> tuple[bool, Score]:
        from explainer.api import Puzzle

        puzzle = Puzzle(grid, techniques)
        statistics = puzzle.statistics
        rank, top, total = explanation_score(statistics, puzzle.difficulty)
        score: tuple[Any, ...] = ()
        ok = True
        if rating is not None:
            distance = _er_distance(puzzle.rating.er, rating)
            ok = not distance
            score += (-distance,)
        if wanted is not None:
            used = {_normal(name): count for name, count in statistics.items() if count}
            guessing = sum(used.get(g, 0) for g in guessing_kinds)
            uses = used.get(wanted, 0)
            ok = bool(uses) and not guessing
            score += (ok, min(uses, 3), -guessing)
        if want_rank is not None:
            ok = ok and rank == want_rank
            score += (-abs(rank - want_rank),)
        # toward a technique, a weight beyond the guessing steps is no progress
        if wanted is not None:
            top = min(top, 7.0)
        return ok, score + (top, total)

    return goal


def describe_target(difficulty: str | None, technique: str | None,
                    rating: tuple[float, float] | None = None) -> str:
    parts = ([f"difficulty {difficulty}"] if difficulty else []) + ([f"technique {technique}"] if technique else [])
    if rating is not None:
        parts.append(f"ER {rating[0]:g}-{rating[1]:g}")
    return ", ".join(parts) or "any"
