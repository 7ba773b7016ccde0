"""3D Medusa: colour candidates along strong links only.

From a root candidate, follow strong links (bivalue cells, values with two
places in a house) breadth first and give each candidate the parity of its
distance. Every strong link here is conjugate (exactly one end true), so the
candidates alternate along any path of the colouring: one colour is entirely
true. Two eliminations follow:

- a candidate that sees a candidate of each colour is false (one of them is
  true); the proof is the path of strong links between the two witnesses,
  of odd length;
- a coloured candidate that sees a candidate of its own colour is false: if
  it were true, the path between them (of even length) would make the other
  true too, and they see each other.

The step shows only what proves its eliminations: for each removed
candidate the shortest such path among the coloured candidates, chosen to
share as much as possible with the paths already shown (the rest of the colouring,
and its root, prove nothing here). The two colours are ``marked`` /
``marked_alt`` and the paths' links are ``strong_links``.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from heapq import heappop, heappush
from itertools import pairwise

from explainer.model.explanation import Explanation
from explainer.model.grid import bits
from explainer.model.i18n import Agree, Words, say
from explainer.model.roles import links as link_roles
from explainer.model.roles import on
from explainer.model.session import Session, StaleTable, session_of
from explainer.model.state import State
from explainer.model.technique import NO_CONTEXT, Context

from .links import Links, links

MAX_LENGTH = 15
# the most strong links one step draws: past it, the colouring's other removals are further steps
MAX_LINKS = 12

TEXT = {
    "en": "Medusa: candidates joined by strong links alternate between two colours, A and B; one colour "
          "is entirely true. {reason}.",
    "fr": "Coloriage 3D : des candidats reliés par des liens forts alternent entre deux couleurs, A et B ; "
          "l'une des deux est entièrement vraie. {reason}.",
}
# the removed candidate sees both colours (one is true), or is coloured itself and sees its own
# colour (if it were true, the candidate of its colour it sees would be true too)
SEES_BOTH = {"en": "{example} sees {x} (colour A) and {y} (colour B), so it is false",
             "fr": "{example} voit {x} (couleur A) et {y} (couleur B), donc il est faux"}
SEES_OWN = {"en": "{example} is itself colour {k} and sees {y}, also colour {k}: colour {k} cannot be "
                  "entirely true, so colour {o} is, and {example} is false",
            "fr": "{example} est lui-même de couleur {k} et voit {y}, aussi de couleur {k} : la couleur {k} "
                  "ne peut pas être entièrement vraie, donc la couleur {o} l'est, et {example} est faux"}
MORE_BOTH = {"en": "; so {are} {rest}, which also {see} both colours",
             "fr": " ; de même pour {rest}, qui {see} aussi les deux couleurs"}
MORE_OWN = {"en": "; so {are} {rest}, also colour {k} and seeing colour {k}",
            "fr": " ; de même pour {rest}, aussi de couleur {k} et voyant la couleur {k}"}
SENTENCE = {"en": ". ", "fr": ". "}


# a path's cost: candidates it adds to those shown, then links (one number, compared at once)
_NEW = 1 << 16


def _cheapest_path(sources: list[int], targets: int, strong: dict[int, list[int]], inside: int,
                   keep: int) -> list[int]:
    """The path of strong links, through the coloured candidates ``inside``, from one of
    ``sources`` to one of ``targets`` (a mask) that adds fewest candidates to ``keep``, then
    the shortest: Dijkstra on new candidates × ``_NEW`` + length."""
    best: dict[int, int] = {}
    back: dict[int, int] = {}
    heap: list[tuple[int, int]] = []
    for s in sources:
        c = 1 if keep >> s & 1 else _NEW + 1
        if c < best.get(s, c + 1):
            best[s], back[s] = c, -1
            heappush(heap, (c, s))
    while heap:
        c, i = heappop(heap)
        if c > best[i]:
            continue
        if targets >> i & 1 and back[i] >= 0:
            path = [i]
            while back[path[-1]] >= 0:
                path.append(back[path[-1]])
            return path[::-1]
        for j in strong.get(i, ()):
            if inside >> j & 1:
                cj = c + (1 if keep >> j & 1 else _NEW + 1)
                if cj < best.get(j, cj + 1):
                    best[j], back[j] = cj, i
                    heappush(heap, (cj, j))
    raise AssertionError("a coloured candidate's witnesses are joined by strong links")


@dataclass
class _Shown:
    """What one step shows: per removed candidate its two witnesses and whether it is one of
    them (coloured itself), the paths of strong links proving them, their candidates (a mask)
    and their links (pairs, lower number first)."""

    witness: dict[int, tuple[int, int, bool]] = field(default_factory=dict)
    paths: list[list[int]] = field(default_factory=list)
    keep: int = 0
    edges: set[tuple[int, int]] = field(default_factory=set)


def _proofs(lk: Links, elim: int, colour: list[int], max_links: int) -> Iterator[_Shown]:
    """The removals of one colouring in steps a picture can show: each step takes removals
    cheapest first (the path of strong links adding fewest candidates to those it already
    shows, then the shortest) while its paths stay within ``max_links`` links; a removal
    needing more opens the next step."""
    weak, strong = lk.weak_of, lk.strong
    inside = colour[0] | colour[1]
    # per removal, where its path may start and end: itself and its own colour, or a
    # candidate of each colour it sees
    ends: dict[int, tuple[list[int], int, bool]] = {}
    for z in bits(elim):
        own = [k for k in (0, 1) if colour[k] >> z & 1]
        if own:
            ends[z] = ([z], weak(z) & colour[own[0]], True)
        else:
            ends[z] = (list(bits(weak(z) & colour[0])), weak(z) & colour[1], False)
    left = sorted(ends, key=lk.cell_order)
    while left:
        shown = _Shown()
        while left:
            best: tuple[tuple[int, int, int], int, list[int]] | None = None
            for rank, z in enumerate(left):
                sources, targets, _ = ends[z]
                path = _cheapest_path(sources, targets, strong, inside, shown.keep)
                key = (sum(1 for i in path if not shown.keep >> i & 1), len(path), rank)
                if best is None or key < best[0]:
                    best = (key, z, path)
            assert best is not None
            _, z, path = best
            more = {(min(a, b), max(a, b)) for a, b in pairwise(path)} - shown.edges
            if shown.witness and len(shown.edges) + len(more) > max_links:
                break
            shown.edges |= more
            shown.witness[z] = (path[0], path[-1], ends[z][2])
            shown.paths.append(path)
            for i in path:
                shown.keep |= 1 << i
            left.remove(z)
        yield shown


def _quiet(session: Session, state: State) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(the colourings of the session's last call that removed nothing, the set this call fills).

    A colouring is its two colours (candidate-number masks, the smaller first). It removes a
    candidate that sees both colours or its own; the state's candidates only go, so in a
    later state inside the last one (every cell's candidates among its candidates there) the
    same colouring sees no more than it did: it still removes nothing, and is not looked at
    again. Another state (a new puzzle, a grid given back candidates) starts afresh."""
    memo = session.slot("medusa")
    cand, before = tuple(state.cand), memo.get("cand")
    kept: set[tuple[int, int]] = memo.get("quiet", set())
    if before is None or len(before) != len(cand) or any(a & ~b for a, b in zip(cand, before, strict=True)):
        kept = set()
    now: set[tuple[int, int]] = set()
    memo["cand"], memo["quiet"] = cand, now
    return kept, now


def find(state: State, ctx: Context = NO_CONTEXT, /, max_length: int = MAX_LENGTH,
         max_links: int = MAX_LINKS) -> Iterator[Explanation]:
    session = session_of(state, ctx)
    lk = links(state, session)
    strong, weak = lk.strong, lk.weak_of
    kept, quiet = _quiet(session, state)
    done = 0
    for root in sorted(strong):
        if done >> root & 1:
            continue
        parent = {root: -1}
        depth = {root: 0}
        colour = [1 << root, 0]
        front = [root]
        d = 0
        while front and d < max_length:
            d += 1
            new = []
            for i in front:
                for j in strong[i]:
                    if j not in parent:
                        parent[j] = i
                        depth[j] = d
                        colour[d & 1] |= 1 << j
                        new.append(j)
            front = new
        done |= colour[0] | colour[1]
        key = (min(colour), max(colour))
        if key in kept and not session.check:  # check mode looks again (and fails if it removes)
            quiet.add(key)
            continue
        seen = [0, 0]
        for k in (0, 1):
            for i in bits(colour[k]):
                seen[k] |= weak(i)
        elim = seen[0] & seen[1]
        if key in kept and elim:
            raise StaleTable(f"medusa: the colouring of {lk.name(root)} removed nothing in an earlier state, "
                             "and removes candidates in this one inside it")
        if not elim:
            quiet.add(key)
            continue
        for shown in _proofs(lk, elim, colour, max_links):
            keep = shown.keep
            marked = [lk.cand(i) for i in bits(keep & colour[0])]
            marked_alt = [lk.cand(i) for i in bits(keep & colour[1])]
            # each link from the end nearer the root, nearest links first
            links_out = sorted(((a, b) if (depth[a], a) < (depth[b], b) else (b, a) for a, b in shown.edges),
                               key=lambda e: (depth[e[1]], e[1], e[0]))
            sl = tuple((lk.cand(a), lk.cand(b)) for a, b in links_out)
            order = sorted(shown.witness, key=lk.cell_order)
            reason = _reasons(lk, order, shown.witness, colour)
            yield Explanation(
                technique="medusa", eliminate=tuple(sorted(lk.cand(z) for z in order)),
                marked=tuple(sorted(marked)), marked_alt=tuple(sorted(marked_alt)), strong_links=sl,
                **say(TEXT, reason=reason),
                detail=(("length", max(len(p) - 1 for p in shown.paths)),),
                roles=(on("colour", candidates=marked, group=0), on("colour", candidates=marked_alt, group=1),
                       *link_roles("strong", sl)),
            )


def _reasons(lk: Links, order: list[int], witness: dict[int, tuple[int, int, bool]], colour: list[int]) -> Words:
    """The caption's reasons: the first removal of each kind (sees both colours, sees its own)
    said whole, the others of that kind named after it."""
    parts: list[dict[str, str]] = []
    for own in (False, True):
        these = [z for z in order if witness[z][2] == own]
        if not these:
            continue
        z = these[0]
        x, y, _ = witness[z]
        rest = ", ".join(lk.name(i) for i in these[1:])
        if own:
            k = 0 if colour[0] >> z & 1 else 1
            first = say(SEES_OWN, example=lk.name(z), y=lk.name(y), k="AB"[k], o="AB"[1 - k])
            more = say(MORE_OWN, rest=rest, k="AB"[k], are=Agree(len(these) - 1, en=("is", "are"))) if rest else None
        else:
            a, b = (x, y) if colour[0] >> x & 1 else (y, x)
            first = say(SEES_BOTH, example=lk.name(z), x=lk.name(a), y=lk.name(b))
            more = say(MORE_BOTH, rest=rest, are=Agree(len(these) - 1, en=("is", "are")),
                       see=Agree(len(these) - 1, en=("sees", "see"), fr=("voit", "voient"))) if rest else None
        by_lang = {"en": first["text"], **dict(first["translations"])}
        if more is not None:
            extra = {"en": more["text"], **dict(more["translations"])}
            by_lang = {lang: text + extra[lang] for lang, text in by_lang.items()}
        parts.append(by_lang)
    return Words(**{lang: SENTENCE[lang].join(p[lang] for p in parts) for lang in parts[0]})
