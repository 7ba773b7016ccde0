"""The sentences of a proof (STEPS_JSON.md ``proof``), written once for every reader.

A forcing or trial step's caption and the frames that draw its proof read
the same facts, reasons and ends: both are written here, so the caption's
end is the proof's end and a frame says what the caption says.

>>> from explainer.model.proof import Branch, BranchEnd, ProofFact
>>> br = Branch((0, 0, 5, True), (ProofFact((0, 0, 5, True), "assume"),
...                               ProofFact((0, 3, 5, False), "peer", (0,))),
...             BranchEnd("cell", (1,), cell=(0, 3)))
>>> fact_line(br, 1, 9, "en")
'r1c4≠5 (r1c1=5 sees it)'
>>> end_phrase(br, 9, "en")
'r1c4 would have no candidate left'
>>> branch_sentence(br, 9, "fr")
"Supposons L1C1=5. Alors L1C4≠5 (L1C1=5 le voit), donc L1C4 n'aurait plus aucun candidat."

Every sentence is in its language's notation (``i18n.notation``: French L1C4 for r1c4):
the functions that take a language are wrapped (``_noted``).
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, ParamSpec, TypeVar

from .grid import geometry, value_char
from .i18n import contract, house_words, join, notation, sentence
from .proof import Branch

Fact = tuple[int, int, int, bool]
P = ParamSpec("P")
T = TypeVar("T")


def _noted(fn: Callable[P, T]) -> Callable[P, T]:
    """``fn``'s words in the notation of its ``lang`` argument (a text, or (facts, text) pairs).
    ``lang`` is read where the call put it (by keyword, else by its position): binding the
    whole signature at every call cost 1-2 % of an explanation."""
    param = inspect.signature(fn).parameters["lang"]
    at = list(inspect.signature(fn).parameters).index("lang")
    if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
        at = -1  # keyword only

    @functools.wraps(fn)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> T:
        out: Any = fn(*args, **kwargs)
        lang: Any = kwargs["lang"] if "lang" in kwargs else args[at] if 0 <= at < len(args) else param.default
        if lang == "en":
            return out  # type: ignore[no-any-return]
        if isinstance(out, str):
            return notation(out, lang)  # type: ignore[return-value]
        return [(k, notation(t, lang)) for k, t in out]  # type: ignore[return-value]
    return wrapped

WORDS = {
    "en": {
        "suppose": "Suppose {f}.", "then": "Then", "so": "so",
        "peer_same": "{f} ({g} sees it)", "peer_many": "no {v} in {cells} ({g} sees them)",
        "peer_cell": "{f} (the cell is {v})",
        "cell": "{f} (last candidate of the cell)", "house": "{f} (last place for {v} in {h})",
        "locked": "{f} (in this branch, {v} of {h1} lies only in {h2})",
        "step": "{f} (by {t} in this branch)",
        "nested": "{f} (supposing {g} leads to a contradiction{where})",
        "end_cell": "{c} would have no candidate left",
        "end_house": "{v} would have no place left in {h}",
        "end_twice": "{v} would be twice in {h} ({a} and {b})",
        "end_solved": "the grid fills up without a contradiction",
        "contradiction": "{end}: contradiction.",
        "end_conclusion": "This branch gives {f}, as every other branch does.",
        "more": "… {k} more …",
        "so_not": "So {c} is not {v}.", "so_is": "So {c} is {v}.",
    },
    "fr": {
        "suppose": "Supposons {f}.", "then": "Alors", "so": "donc",
        "peer_same": "{f} ({g} le voit)", "peer_many": "plus de {v} en {cells} ({g} les voit)",
        "peer_cell": "{f} (la case vaut {v})",
        "cell": "{f} (dernier candidat de la case)", "house": "{f} (dernière place du {v} dans {h})",
        "locked": "{f} (dans cette branche, le {v} de {h1} n'est que dans {h2})",
        "step": "{f} (par {t} dans cette branche)",
        "nested": "{f} (supposer {g} mène à une contradiction{where})",
        "end_cell": "{c} n'aurait plus aucun candidat",
        "end_house": "le {v} n'aurait plus de place dans {h}",
        "end_twice": "le {v} serait deux fois dans {h} ({a} et {b})",
        "end_solved": "la grille se remplit sans contradiction",
        "contradiction": "{end} : contradiction.",
        "end_conclusion": "Cette branche donne {f}, comme toutes les autres.",
        "more": "… {k} de plus …",
        "so_not": "Donc {c} ne vaut pas {v}.", "so_is": "Donc {c} vaut {v}.",
    },
}


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def fact_text(fact: Iterable[Any]) -> str:
    """'r5c3=7' (true) or 'r5c3≠7' (false)."""
    r, c, v, t = tuple(fact)
    return f"r{r + 1}c{c + 1}{'=' if t else '≠'}{value_char(v)}"


FACT_WORDS = {"en": ("{c} is {v}", "{c} is not {v}"), "fr": ("{c} vaut {v}", "{c} ne vaut pas {v}")}


@_noted
def fact_words(fact: Iterable[Any], lang: str) -> str:
    """'r5c3 is 7' / 'r5c3 is not 7' (a conclusion in words)."""
    r, c, v, t = tuple(fact)
    yes, no = FACT_WORDS.get(lang, FACT_WORDS["en"])
    return (yes if t else no).format(c=f"r{r + 1}c{c + 1}", v=value_char(v))


def cell_text(cell: Iterable[int]) -> str:
    r, c = tuple(cell)[:2]
    return f"r{r + 1}c{c + 1}"


def house_text(house: tuple[str, int], lang: str) -> str:
    return house_words(house[0], house[1], lang)


def common_house(n: int, cells: list[tuple[int, int]]) -> tuple[str, int] | None:
    """The row, else the column, else the box holding every cell (None: no such house)."""
    geo = geometry(n)
    idx = [r * n + c for r, c in cells]
    for h in geo.cell_houses[idx[0]]:
        if all(x in geo.houses[h] for x in idx):
            return geo.house_key(h)
    return None


def _fact_line(branch: Any, i: int, n: int, lang: str, where: str = "") -> str:
    """Fact ``i`` of a branch with its reason: 'r9c6≠3 (r5c6=3 sees it)'. ``where`` (a
    nested fact): where its own proof is shown, e.g. ': frames 1c1–1c3'. In English notation
    (``fact_line`` writes it in the language's)."""
    w = words(lang)
    f = branch.facts[i]
    ft = fact_text(f.fact)
    prem = [branch.facts[j].fact for j in f.premises if 0 <= j < len(branch.facts)]
    if f.rule == "peer":
        trues = [p for p in prem if p[3]]
        g = trues[0] if trues else (prem[0] if prem else None)
        if g is None:
            return ft
        if tuple(g[:2]) == tuple(f.fact[:2]):
            return w["peer_cell"].format(f=ft, v=value_char(g[2]))
        return w["peer_same"].format(f=ft, g=fact_text(g))
    if f.rule == "cell":
        return w["cell"].format(f=ft)
    if f.rule == "house":
        h = common_house(n, [tuple(f.fact[:2])] + [tuple(p[:2]) for p in prem])
        return w["house"].format(f=ft, v=value_char(f.fact[2]), h=house_text(h, lang) if h else "?")
    if f.rule == "step" and f.step is not None:
        if f.step.proof is not None:
            r, c, v, _ = f.fact
            return w["nested"].format(f=ft, g=fact_text((r, c, v, True)), where=where)
        hs = list(f.step.houses)
        if len(hs) == 2:
            return contract(w["locked"].format(f=ft, v=value_char(f.fact[2]), h1=house_text(hs[0], lang),
                                               h2=house_text(hs[1], lang)), lang)
        return w["step"].format(f=ft, t=f.step.technique)
    return ft


fact_line = _noted(_fact_line)


def _seer(branch: Branch, i: int) -> int | None:
    """The true fact in another cell that removes fact ``i``'s digit by seeing it (None: another reason)."""
    f = branch.facts[i]
    if f.rule != "peer" or f.fact[3]:
        return None
    for j in f.premises:
        if 0 <= j < len(branch.facts):
            g = branch.facts[j].fact
            if g[3] and g[2] == f.fact[2] and tuple(g[:2]) != tuple(f.fact[:2]):
                return j
    return None


def _line_facts(branch: Any, idx: list[int], where: Any = None) -> list[tuple[list[int], str]]:
    """How ``fact_lines`` groups facts ``idx`` into lines: each line's facts, and for a line
    of one fact its nested-proof frames (``where(i)``, "" for none). Grouping costs little;
    writing a line costs more, and a long branch's caption keeps a few lines only."""
    out: list[tuple[list[int], str]] = []
    run: list[int] = []
    for i in idx:
        at = where(i) if where is not None else ""
        j = _seer(branch, i)
        if at or j is None:
            if run:
                out.append((run, ""))
                run = []
            out.append(([i], at))
            continue
        if run and _seer(branch, run[0]) != j:
            out.append((run, ""))
            run = []
        run.append(i)
    if run:
        out.append((run, ""))
    return out


def _line_text(branch: Any, facts: list[int], at: str, n: int, lang: str) -> str:
    """A line of ``_line_facts`` in words (English notation): one fact with its reason, or a
    run of removals by one value said once."""
    if len(facts) == 1:
        return _fact_line(branch, facts[0], n, lang, at)
    g = branch.facts[_seer(branch, facts[0])].fact
    cells = [cell_text(branch.facts[i].fact) for i in facts]
    return words(lang)["peer_many"].format(v=value_char(g[2]), g=fact_text(g), cells=join(cells, lang, NONE_OF))


@_noted
def fact_lines(branch: Any, idx: list[int], n: int, lang: str,
               where: Any = None) -> list[tuple[list[int], str]]:
    """Facts ``idx`` with their reasons, a run of removals by one value said once: 'no 1
    in r1c8, r2c8 and r7c3 (r7c8=1 sees them)' (the facts of each line, its words).
    ``where(i)``: fact i's nested-proof frames (a fact having them stays alone)."""
    return [(facts, _line_text(branch, facts, at, n, lang)) for facts, at in _line_facts(branch, idx, where)]


NONE_OF = {"en": "or", "fr": "et"}  # 'no 1 in r1c8, r2c8 or r7c3' / 'plus de 1 en r1c8, r2c8 et r7c3'


def _end_phrase(branch: Any, n: int, lang: str) -> str:
    """How the branch ends, as a clause: '5 would be twice in column 6 (r9c6 and r3c6)';
    for a conclusion, the facts it gives."""
    w = words(lang)
    e = branch.end
    if e.kind == "cell" and e.cell is not None:
        return w["end_cell"].format(c=cell_text(e.cell))
    if e.kind == "house" and e.house is not None:
        return w["end_house"].format(v=value_char(e.value), h=house_text(tuple(e.house), lang))
    if e.kind == "twice" and len(e.cells) == 2:
        a, b = (tuple(x) for x in e.cells)
        h = common_house(n, [a, b])
        return w["end_twice"].format(v=value_char(e.value), h=house_text(h, lang) if h else "?",
                                     a=cell_text(a), b=cell_text(b))
    if e.kind == "conclusion":
        return ", ".join(fact_text(branch.facts[j].fact) for j in e.conclusion if 0 <= j < len(branch.facts))
    if e.kind == "solved":
        return w["end_solved"]
    return ""


end_phrase = _noted(_end_phrase)


@_noted
def end_line(branch: Any, n: int, lang: str) -> str:
    """The branch's end as a sentence: '… : contradiction.' or 'This branch gives …'."""
    w = words(lang)
    phrase = _end_phrase(branch, n, lang)
    if branch.end.kind == "conclusion":
        return w["end_conclusion"].format(f=phrase)
    if branch.end.kind == "solved":
        return sentence(phrase) + "."
    return w["contradiction"].format(end=sentence(phrase))


def _suppose_line(branch: Any, lang: str) -> str:
    return words(lang)["suppose"].format(f=fact_text(branch.assume))


suppose_line = _noted(_suppose_line)


@_noted
def so_line(proof: Any, lang: str) -> str:
    """'So r9c8 is 8.' after a contradiction branch (empty for other kinds)."""
    b = proof.branches[0]
    if proof.kind != "contradiction" or not b.end.is_contradiction:
        return ""
    r, c, v, t = b.assume
    return words(lang)["so_not" if t else "so_is"].format(c=f"r{r + 1}c{c + 1}", v=value_char(v))


def shown_facts(branch: Any) -> list[int]:
    """The facts a reader is told, in order: a true fact's other candidates in its own cell
    go without saying (the cell holds the true value)."""
    out = []
    for i in range(1, len(branch.facts)):
        f = branch.facts[i]
        if f.rule == "peer" and f.premises:
            p = branch.facts[f.premises[0]].fact
            if tuple(p[:2]) == tuple(f.fact[:2]):
                continue
        out.append(i)
    return out


@_noted
def branch_sentence(branch: Any, n: int, lang: str, head: int = 4, tail: int = 4) -> str:
    """'Suppose r5c3=7. Then r5c7≠7 (r5c3=7 sees it), …, so END.' A branch of more
    than ``head + tail + 1`` told facts keeps its first ``head`` and last ``tail``."""
    w = words(lang)
    concl = set(branch.end.conclusion) if branch.end.kind == "conclusion" else set()
    idx = [i for i in shown_facts(branch) if i not in concl]
    lines = _line_facts(branch, idx)
    if len(lines) > head + tail + 1:
        hidden = sum(len(facts) for facts, _ in lines[head:len(lines) - tail])
        lines = lines[:head] + [([], w["more"].format(k=hidden))] + (lines[-tail:] if tail else [])
    # the lines kept written (in English notation: this function's result is written in the language's)
    parts = [_line_text(branch, facts, at, n, lang) if facts else at for facts, at in lines]
    # a conclusion is said once, at the end, with its reason
    end = (", ".join(_fact_line(branch, j, n, lang) for j in sorted(concl)) if concl
           else _end_phrase(branch, n, lang))
    text = _suppose_line(branch, lang)
    if parts:
        return f"{text} {w['then']} {', '.join(parts)}, {w['so']} {end}."
    return f"{text} {w['then']} {end}."
