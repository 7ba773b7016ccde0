"""Brutal: not a technique. When nothing else works, read one value from
the solution, preferring a cell at the end of a strong link (a learner
could then try that link) and else a cell with the fewest candidates. Its
count rates how hard the puzzle is for this engine."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.model.explanation import Explanation, cands
from explainer.model.i18n import House, Value, Words, join, say
from explainer.model.roles import on
from explainer.model.state import State
from explainer.model.technique import Context, Technique

TEXT = {
    "en": "Brutal: {none}, so the solution is read: {why}; {cell} is {v}.",
    "fr": "Brutal : {none}, on lit la solution : {why} ; {cell} vaut {v}.",
}
# what was tried: the techniques of the run before brutal (only those: a run may choose a few)
NONE_NAMED = {"en": "none of the techniques in use ({names}) applies",
              "fr": "aucune des techniques employées ({names}) ne s'applique"}
NONE_COUNTED = {"en": "none of the {k} techniques in use applies",
                "fr": "aucune des {k} techniques employées ne s'applique"}
NAMED_AT_MOST = 8  # step kinds named in the text; more are counted
WHY_BIVALUE = {"en": "{cell} is either {a} or {b}", "fr": "{cell} vaut {a} ou {b}"}
WHY_BILOCAL = {"en": "{v} has only two places in {house}, {a} and {b}",
               "fr": "{v} n'a que deux places dans {house}, {a} et {b}"}
WHY_FEWEST = {"en": "{cell} has the fewest candidates", "fr": "{cell} a le moins de candidats"}


def find(state: State, ctx: Context, /) -> Iterator[Explanation]:
    solution = ctx.solution
    if solution is None:
        return
    geo = state.geo
    cand = state.cand
    best, best_count = -1, geo.n + 1
    for c, m in enumerate(cand):
        if m:
            k = m.bit_count()
            if k < best_count:
                best, best_count = c, k
                if k == 2:
                    break
    if best < 0:
        return
    v = solution[best]
    house = -1
    if best_count == 2:
        # a bivalue cell is a strong link between its two candidates
        other = (cand[best] & ~(1 << (v - 1))).bit_length()
        marked = cands(geo, [(best, v), (best, other)])
        why = say(WHY_BIVALUE, cell=geo.cell_name(best), a=Value(v), b=Value(other))
    elif (bilocal := _bilocal(state)) is not None:
        a, b, w, house = bilocal
        best, v = (a, w) if solution[a] == w else (b, w)
        marked = cands(geo, [(a, w), (b, w)])
        why = say(WHY_BILOCAL, v=Value(w), house=House(geo, house), a=geo.cell_name(a), b=geo.cell_name(b))
    else:
        marked = cands(geo, [(best, w) for w in range(1, geo.n + 1) if cand[best] >> (w - 1) & 1])
        why = say(WHY_FEWEST, cell=geo.cell_name(best))
    place = cands(geo, [(best, v)])
    # the cells the reason names (and their house); the value read is the step's placement,
    # the other candidates stay plain: nothing about them is a pattern
    seen = sorted({(r, c) for r, c, _ in marked})
    yield Explanation(
        technique="brutal",
        place=place,
        marked=marked,
        **say(TEXT, none=_tried(ctx.earlier), why=Words(en=why["text"], **dict(why["translations"])),
              cell=geo.cell_name(best), v=Value(v)),
        roles=(on("cells", cells=seen),) + ((on("house", houses=[geo.house_key(house)]),) if house >= 0 else ()),
    )


def _tried(earlier: tuple[Technique, ...]) -> Words:
    """'none of the techniques in use (single position and single candidate) applies'."""
    titles = {lang: [k.title(lang) for t in earlier for k in t.kinds] for lang in ("en", "fr")}
    if not earlier or len(titles["en"]) > NAMED_AT_MOST:
        return Words(**{lang: NONE_COUNTED[lang].format(k=len(earlier)) for lang in titles})
    return Words(**{lang: NONE_NAMED[lang].format(names=join(names, lang)) for lang, names in titles.items()})


def _bilocal(state: State) -> tuple[int, int, int, int] | None:
    """A value with exactly two places in some house: (cell, cell, value, house)."""
    geo = state.geo
    for v in range(1, geo.n + 1):
        pv = state.pos[v - 1]
        for h, hm in enumerate(geo.house_mask):
            w = pv & hm
            if w.bit_count() == 2:
                low = w & -w
                return low.bit_length() - 1, (w ^ low).bit_length() - 1, v, h
    return None
