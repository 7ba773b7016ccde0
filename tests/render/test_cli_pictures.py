"""The picture flags of explain-sudoku, end to end (issue 5)."""
from explainer.app.cli import main

SEED = "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81...."


def test_flags_pass_through(tmp_path, capsys):
    out = tmp_path / "o"
    rc = main([SEED, "--out", str(out), "--html", "--group-singles", "--palette", "colorblind", "--lang", "fr",
               "--size", "500", "--gif-duration", "300", "--gif-hold", "900", "--gif-loop", "-1", "-q"])
    assert rc == 0, capsys.readouterr().err
    names = sorted(p.name for p in out.iterdir())
    assert "index.html" in names and "explanation.gif" in names and "EXPLANATIONS-01.png" in names
    # French frames carry French names (issue 41, item 6)
    assert any(n.endswith("-SINGLETONS.png") for n in names) and not any("SINGLE-" in n for n in names)
    assert any(n.endswith("-BLOCAGE.png") or n.endswith("-POSITION-UNIQUE.png") for n in names), names
    from PIL import Image

    with Image.open(out / "000-GRILLE-INITIALE.png") as im:
        assert abs(im.size[0] - 500) <= 1
    with Image.open(out / "explanation.gif") as gif:
        assert "loop" not in gif.info and gif.info["duration"] == 900
    assert "Grille initiale" in (out / "index.html").read_text(encoding="utf-8")


def test_svg_and_only(tmp_path):
    out = tmp_path / "s"
    assert main([SEED, "--out", str(out), "--format", "svg", "--only", "locked-candidate,brutal",
                 "--no-gif", "-q"]) == 0
    svgs = sorted(p.name for p in out.glob("*.svg"))
    assert svgs[0].startswith("000-INITIAL") and svgs[-1].endswith("-SOLUTION.svg")
    assert all("LOCKED-CANDIDATE" in n or "BRUTAL" in n for n in svgs[1:-1])


def test_bad_flags_one_line(tmp_path, capsys):
    for args in (["--palette", "rainbow"], ["--only", "nope"], ["--dpi", "0"]):
        assert main([SEED, "--out", str(tmp_path / "x"), *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_hint_subcommand(tmp_path, capsys):
    assert main(["hint", SEED, "--level", "2"]) == 0
    assert capsys.readouterr().out.startswith("Look for: single position, in box")


def test_frame_at_any_step():
    from explainer import Puzzle
    from render.frame import puzzle_frame_png

    p = Puzzle(SEED)
    for k in (0, 5, len(p.steps) + 1):
        assert puzzle_frame_png(p, k)[:4] == b"\x89PNG"


def test_wave2_flags(tmp_path, capsys):
    """--gif-per-char 0 (every step --gif-duration), --html-standalone (frames inside the page)."""
    from PIL import Image

    out = tmp_path / "w"
    rc = main(["3..22.....4.....", "--out", str(out), "--html-standalone", "--gif-per-char", "0",
               "--gif-duration", "400", "-q"])
    assert rc == 0, capsys.readouterr().err
    page = (out / "index.html").read_text(encoding="utf-8")
    assert '"src": "data:image/png;base64,' in page and 'id="note"' not in page
    with Image.open(out / "explanation.gif") as gif:
        gif.seek(1)
        assert gif.info["duration"] == 400
    assert main(["3..22.....4.....", "--out", str(tmp_path / "x"), "--gif-per-char", "-1", "-q"]) == 2


def test_a_remote_pair_can_be_drawn_from_the_command_line(tmp_path, capsys):
    """Issue 41, item 8: no explanation shows a remote pair (a simpler step always comes first);
    examples/remote-pair.txt is a real position (top1465 line 2 before step 78) where ``steps``
    finds one and draws it, named in the frame's language."""
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "remote-pair.txt"
    assert main(["steps", str(example), "--technique", "remote pair", "--out", str(tmp_path / "en")]) == 0
    out = capsys.readouterr().out
    assert "1. remote pair: r9c4<>5" in out and "(5=7)r4c4-(7=5)r4c3-(5=7)r6c2-(7=5)r9c2" in out
    assert [p.name for p in (tmp_path / "en").glob("*.png")] == ["001-REMOTE-PAIR.png"]
    assert main(["steps", str(example), "--technique", "remote pair", "--out", str(tmp_path / "fr"),
                 "--lang", "fr", "--palette", "high-contrast"]) == 0
    assert [p.name for p in (tmp_path / "fr").glob("*.png")] == ["001-PAIRE-DISTANTE.png"]
