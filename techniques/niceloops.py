"""Every chain and nice loop of a position, variants included (``steps``, HoDoKu's "find all").

The engine's chain search (``chains``) keeps, from each start, the first
route to each candidate: enough to find the shortest step, not every one. A
teacher listing every step of a position (``explain-sudoku steps``) and a
collector comparing with HoDoKu want each variant as players know it:

- x chains along one digit and xy chains through bivalue cells, even where a
  shorter chain mixing both joins the same two ends (the same breadth-first
  search, on the links of one digit, or on the bivalue cells' links only);
- remote pairs of any even length, with every cell that sees two cells an odd
  number of links apart (``remotepairs``);
- chains and continuous loops longer than the engine looks for;
- discontinuous nice loops: a candidate X whose two links at the break are
  strong, X = A - … - B = X: if X were false, A would be true … B false, and
  X true after all, so X is true (HoDoKu's "Discontinuous Nice Loop", set
  value; SudokuWiki's nice loop rule 2). The other kinds are chains already:
  X - A = … = B - X (two weak links, X false) is the chain A = … = B, whose
  ends X sees, and X = A … B - Y in one cell is the chain from X to B.

Only listing every step runs these searches (``find``, the chain record's
``Technique.every``): the engine never pays for them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from explainer.core.search import chain_path
from explainer.model.explanation import Explanation
from explainer.model.grid import bits, value_char
from explainer.model.i18n import say
from explainer.model.roles import chain
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from . import remotepairs
from .chains import MAX_LENGTH, _chain_or_loop, _links, eureka, plain
from .links import Links, links

MAX_EVERY = 21  # links in a chain listed by ``steps`` (HoDoKu's library has chains of 19)

DISCONTINUOUS = {
    "en": "Discontinuous nice loop: {formal}. {plain} But then {cell} would be {v} after all, through its "
          "strong link with {last}: assuming it is not {v} contradicts itself, so {cell} is {v}.",
    "fr": "Boucle discontinue : {formal}. {plain} Mais alors {cell} vaudrait {v} quand même, par son lien "
          "fort avec {last} : supposer qu'elle ne vaut pas {v} se contredit, donc {cell} vaut {v}.",
}


def find(state: State, ctx: Context = NO_CONTEXT, /) -> Iterator[Explanation]:
    """Every chain, loop and remote pair of ``state`` (``every``, up to the chain search's length)."""
    return every(state, MAX_LENGTH)


def every(state: State, max_length: int) -> Iterator[Explanation]:
    """The engine's chains, then the variants its search leaves out, each (technique and
    changes) once."""
    from .chains import _search

    done: set[tuple[object, ...]] = set()

    def new(step: Explanation | None) -> bool:
        if step is None:
            return False
        key = (step.technique, step.place, step.eliminate)
        if key in done:
            return False
        done.add(key)
        return True

    for step in _search(state, max_length, False, own=True):  # the engine's search first
        if new(step):
            yield step
    lk = links(state)
    for step in remote_pairs(state):
        if new(step):
            yield step
    full = _Graph.full(lk)
    for graph in (_Graph.one_digit(lk), _Graph.bivalue(lk), full):
        for step in _chains(state, lk, graph, MAX_EVERY):
            if new(step):
                yield step
    for step in _discontinuous(state, lk, full, MAX_EVERY - 1):
        if new(step):
            yield step


class _Graph:
    """The links a search may follow: strong neighbours and weak neighbours (a mask) per
    candidate, a subset of ``links``; eliminations always read the whole graph."""

    def __init__(self, strong: dict[int, list[int]], weak: Callable[[int], int]) -> None:
        self.strong, self.weak = strong, weak
        self.has_strong = 0
        for i in strong:
            self.has_strong |= 1 << i

    @classmethod
    def full(cls, lk: Links) -> _Graph:
        return cls(lk.strong, lk.weak.__getitem__)

    @classmethod
    def one_digit(cls, lk: Links) -> _Graph:
        """Links between candidates of one value (x chains, x cycles)."""
        N = lk.N
        block = (1 << N) - 1
        strong = {i: [j for j in js if j // N == i // N] for i, js in lk.strong.items()}
        return cls({i: js for i, js in strong.items() if js}, lambda i: lk.weak[i] & block << (i // N * N))

    @classmethod
    def bivalue(cls, lk: Links) -> _Graph:
        """Strong links inside bivalue cells, weak links between cells on one value (xy chains)."""
        N = lk.N
        block = (1 << N) - 1
        strong = {i: [j for j in js if j % N == i % N] for i, js in lk.strong.items()}
        return cls({i: js for i, js in strong.items() if js},
                   lambda i: lk.weak[i] & block << (i // N * N) & ~(1 << i))


def _walk(graph: _Graph, s: int, max_length: int, par: dict[int, int]) -> Iterator[tuple[int, int, int]]:
    """Breadth first from candidate s assumed false, strong and weak links in turn: (links,
    candidate, candidates on its path) for each (candidate, truth) the first time it is
    reached; ``par`` gets each one's parent (key 2 * candidate + truth), so the path of what
    was yielded can be read back."""
    par[2 * s] = -1
    seen_on, seen_off = 0, 1 << s
    front = [(s, 1 << s)]
    for length in range(1, max_length + 1):
        out = []
        if length % 2:  # false -> true along strong links
            for i, pm in front:
                for j in graph.strong.get(i, ()):
                    if (pm | seen_on) >> j & 1:
                        continue
                    seen_on |= 1 << j
                    par[2 * j + 1] = 2 * i
                    out.append((j, pm | 1 << j))
        else:  # true -> false along weak links, to candidates that go on by a strong link
            for i, pm in front:
                w = graph.weak(i) & graph.has_strong & ~pm & ~seen_off
                seen_off |= w
                for j in bits(w):
                    par[2 * j] = 2 * i + 1
                    out.append((j, pm | 1 << j))
        if not out:
            return
        for j, pm in out:
            yield length, j, pm
        front = out


def _chains(state: State, lk: Links, graph: _Graph, max_length: int) -> Iterator[Explanation]:
    """Chains and continuous loops along ``graph``, per start, shortest first."""
    weak = lk.weak
    for s in sorted(graph.strong):
        par: dict[int, int] = {}
        ws = weak[s]
        for length, e, _ in _walk(graph, s, max_length, par):
            if length % 2 and length >= 3 and (ws >> e & 1 or ws & weak[e]):
                step = _chain_or_loop(lk, s, e, par, length, state)
                if step is not None:
                    yield step
                if ws >> e & 1:  # the loop's chain too, as HoDoKu's x and xy chains read it
                    step = _chain_or_loop(lk, s, e, par, length, state, closed=False)
                    if step is not None:
                        yield step


def _discontinuous(state: State, lk: Links, graph: _Graph, max_length: int) -> Iterator[Explanation]:
    """Discontinuous nice loops X = A - … - B = X: X false makes B false, whose strong link
    with X makes X true, so X is true."""
    for s in sorted(graph.strong):
        par: dict[int, int] = {}
        ends = 0
        for j in graph.strong[s]:
            ends |= 1 << j
        for length, y, _ in _walk(graph, s, max_length, par):
            if length % 2 == 0 and ends >> y & 1:
                yield _discontinuous_step(state, lk, chain_path(par, 2 * y))
                break  # one loop per candidate: the shortest


def step_of_nodes(lk: Links, state: State, nodes: list[int]) -> Explanation | None:
    """The step of the chain through ``nodes`` (an even number: false, true, false … true)."""
    par: dict[int, int] = {}
    prev = -1
    for k, i in enumerate(nodes):
        key = 2 * i + k % 2
        par[key] = prev
        prev = key
    return _chain_or_loop(lk, nodes[0], nodes[-1], par, len(nodes) - 1, state)


def _discontinuous_step(state: State, lk: Links, nodes: list[int]) -> Explanation:
    geo = lk.geo
    s = nodes[0]
    cell, v = lk.cell(s), lk.value(s)
    r, c = divmod(cell, geo.n)
    kinds = "".join("=" if k % 2 == 0 else "-" for k in range(len(nodes) - 1)) + "="
    sl, wl = _links(lk, nodes, kinds)
    others = tuple((r, c, u + 1) for u in bits(state.cand[cell]) if u + 1 != v)
    name = geo.cell_name(cell)
    last = f"{geo.cell_name(lk.cell(nodes[-1]))}={value_char(lk.value(nodes[-1]))}"
    formal = eureka(lk, nodes + [s], kinds) + f" => {name}={value_char(v)}"
    return Explanation(
        technique="discontinuous loop", place=((r, c, v),), eliminate=others,
        marked=tuple(sorted(lk.cand(i) for i in nodes)), strong_links=sl, weak_links=wl,
        **say(DISCONTINUOUS, formal=formal, plain=plain(lk, nodes, False), cell=name, v=value_char(v), last=last),
        detail=(("length", len(nodes)),),
        roles=chain([lk.cand(i) for i in nodes], kinds, False, closed=True),
    )


def remote_pairs(state: State) -> Iterator[Explanation]:
    """Every remote pair with eliminations, one step per set of eliminations (the shortest
    chain making it)."""
    lk = links(state)
    done: set[int] = set()
    for path in remotepairs.paths(state):
        elim = remotepairs.removed(state, path)
        if not elim or elim in done:
            continue
        done.add(elim)
        a, b = (v + 1 for v in bits(state.cand[path[0]]))
        nodes = []
        for k, c in enumerate(path):  # (a=b)c0 - (b=a)c1 - (a=b)c2 …
            first, second = (a, b) if k % 2 == 0 else (b, a)
            nodes += [lk.index(c, first), lk.index(c, second)]
        step = step_of_nodes(lk, state, nodes)
        if step is not None and step.technique == "remote pair":
            yield step
