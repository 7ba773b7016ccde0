"""The server over HTTP (Starlette's TestClient, and the real command in a subprocess): the
Host check, the body limit, bad JSON and bad positions, the time limit and engine errors
(the server keeps serving), a port in use, Ctrl-C, the missing extra."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from explainer.app.cli import main  # noqa: E402
from explainer.app.cli.serve import reachable  # noqa: E402
from explainer.app.serve.app import Config, allowed_hosts, create_app, ip_host  # noqa: E402
from explainer.app.serve.pool import Pool  # noqa: E402
from tests.conftest import ROOT, SHARED  # noqa: E402

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD2 = (SHARED / "data" / "hardest300.txt").read_text().split()[1]
HOST = {"Host": "127.0.0.1:8765"}
JSON = {"Content-Type": "application/json"}


def fake_handlers(bank: str | None) -> dict[str, Callable[[Any], Any]]:
    """Handlers for the pool's own tests (run in the worker): one that sleeps, one that fails."""

    def hint(body: Any) -> Any:
        time.sleep(float(body.get("sleep", 0)))
        return {"slept": body.get("sleep", 0), "pid": os.getpid()}

    def check(body: Any) -> Any:
        raise RuntimeError("the engine broke")

    def apply(body: Any) -> Any:
        from explainer.model.grid import PuzzleError

        raise PuzzleError("a refusal of the library", "somewhere")

    return {"hint": hint, "check": check, "apply": apply}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(Config(workers=1, hint_seconds=30))
    with TestClient(app, headers=HOST) as c:
        yield c


@pytest.fixture(scope="module")
def fake() -> Iterator[TestClient]:
    app = create_app(Config(workers=1, hint_seconds=1.0), pool=Pool(1, factory=fake_handlers))
    with TestClient(app, headers=HOST) as c:
        yield c


def one_line_error(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    msg = r.json()["error"]
    assert isinstance(msg, str) and "\n" not in msg and "Traceback" not in msg
    return msg


def test_the_page_and_its_headers(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<html" in r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    meta = client.get("/api/meta").json()
    assert meta["limits"] == {"hint_seconds": 30, "body_bytes": 65536}
    assert {"default", "colorblind", "high-contrast"} <= set(meta["themes"]) and meta["bank"]["available"] is False
    assert meta["palettes"] == meta["themes"]  # the deprecated older name, kept for pages that read it
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    one_line_error(client.get("/nothing"), 404)


def test_a_foreign_host_is_refused(client: TestClient) -> None:
    for host in ("evil.example:8765", "127.0.0.1:9999", "testserver", "localhost.evil.example:8765"):
        one_line_error(client.get("/api/meta", headers={"Host": host}), 421)
    for host in ("127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765"):
        assert client.get("/api/meta", headers={"Host": host}).status_code == 200
    assert "0.0.0.0:9000" in allowed_hosts("0.0.0.0", 9000)
    assert ip_host("192.168.1.5:9000", 9000) and not ip_host("evil.example:9000", 9000)
    # another site's page posting here (DNS rebinding aside): refused by its Origin
    r = client.post("/api/check", json={"puzzle": EASY}, headers={"Origin": "http://evil.example"})
    assert "another site" in one_line_error(r, 403)
    ok = client.post("/api/check", json={"puzzle": EASY}, headers={"Origin": "http://127.0.0.1:8765"})
    assert ok.status_code == 200


def test_a_body_over_64_kb_is_refused_even_chunked(client: TestClient) -> None:
    big = b'{"puzzle": "' + b"." * 70_000 + b'"}'
    assert "64 KB" in one_line_error(client.post("/api/check", content=big, headers=JSON), 413)

    def chunks() -> Iterator[bytes]:
        for _ in range(70):
            yield b" " * 1024

    assert "64 KB" in one_line_error(client.post("/api/check", content=chunks(), headers=JSON), 413)


def test_malformed_json_wrong_sizes_and_impossible_grids(client: TestClient) -> None:
    assert "not JSON" in one_line_error(client.post("/api/check", content=b"{puzzle", headers=JSON), 400)
    assert "JSON object" in one_line_error(client.post("/api/check", json=[1, 2]), 400)
    assert "not UTF-8" in one_line_error(client.post("/api/check", content=b"\xff\xfe", headers=JSON), 400)
    assert "Content-Type" in one_line_error(client.post("/api/check", content=b"{}"), 415)
    deep = b"[" * 60_000 + b"]" * 60_000
    assert "nested too deeply" in one_line_error(client.post("/api/check", content=deep[:65_000], headers=JSON), 400)
    deep = b'{"a":' * 10_000 + b"1" + b"}" * 10_000
    assert "nested too deeply" in one_line_error(client.post("/api/check", content=deep, headers=JSON), 400)
    text = {"Content-Type": "text/plain"}
    assert "Content-Type" in one_line_error(client.post("/api/check", content=b'{"puzzle": "x"}', headers=text), 415)
    assert "not a sudoku size" in one_line_error(client.post("/api/check", json={"puzzle": EASY[:80]}), 400)
    assert "grid: 80" in one_line_error(client.post("/api/hint", json={"puzzle": EASY, "grid": EASY[:80]}), 400)
    msg = one_line_error(client.post("/api/check", json={"puzzle": "12345678." + "........9" + "." * 63}), 400)
    assert "no solution" in msg
    assert "level" in one_line_error(client.post("/api/hint", json={"puzzle": EASY, "level": 7}), 400)
    one_line_error(client.post("/api/nothing", json={}), 404)
    one_line_error(client.get("/api/hint"), 405)


def test_a_hint_and_a_check_through_http(client: TestClient) -> None:
    h = client.post("/api/hint", json={"puzzle": EASY, "level": 3}).json()
    assert h["technique"] == "single position" and h["scenes"]
    assert client.post("/api/check", json={"puzzle": EASY, "grid": "5" + EASY[1:]}).json()["mistakes"]
    assert client.post("/api/start", json={"text": EASY}).json()["givens"] == 32


@pytest.mark.slow
def test_past_its_time_limit_the_worker_is_replaced_and_the_next_request_served(fake: TestClient) -> None:
    first = fake.post("/api/hint", json={"sleep": 0}).json()["pid"]
    msg = one_line_error(fake.post("/api/hint", json={"sleep": 10}), 504)
    assert "longer than 1 s" in msg
    after = fake.post("/api/hint", json={"sleep": 0}).json()
    assert after["pid"] != first  # a fresh worker


@pytest.mark.slow
def test_an_engine_error_is_a_500_and_the_server_keeps_serving(fake: TestClient) -> None:
    msg = one_line_error(fake.post("/api/check", json={}), 500)
    assert "RuntimeError: the engine broke" in msg
    assert fake.post("/api/hint", json={"sleep": 0}).status_code == 200
    # the library's own refusal of bad input is the request's fault: 400, its one line
    assert one_line_error(fake.post("/api/apply", json={}), 400) == "somewhere: a refusal of the library"


@pytest.mark.slow
def test_a_real_hint_past_a_tiny_limit_is_a_504() -> None:
    app = create_app(Config(workers=1, hint_seconds=0.02))
    with TestClient(app, headers=HOST) as c:
        one_line_error(c.post("/api/hint", json={"puzzle": HARD2, "level": 3}), 504)
        assert c.get("/api/meta").status_code == 200


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_port_in_use_is_one_line_and_status_3(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"port {port} is in use" in err


def test_the_network_warning_is_for_other_addresses_only() -> None:
    assert not reachable("127.0.0.1") and not reachable("localhost") and not reachable("::1")
    assert reachable("0.0.0.0") and reachable("192.168.1.5")


def test_without_the_extra_one_line_says_how_to_install_it() -> None:
    code = ("import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
            "from explainer.app.cli import main; sys.exit(main(['serve']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == ("explain-sudoku: error: explain-sudoku serve needs the serve extra: "
                                "pip install 'sudoku-explainer[serve]'")


def test_help_explains() -> None:
    r = subprocess.run([sys.executable, "-m", "explain_sudoku", "serve", "--help"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0 and "--hint-seconds" in r.stdout and "browser" in r.stdout


@pytest.mark.slow
def test_ctrl_c_ends_the_server_in_bounded_time() -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "explain_sudoku", "serve", "--port", str(port), "--workers", "1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert f"http://127.0.0.1:{port}/" in line
        import urllib.error
        import urllib.request

        deadline = time.monotonic() + 60
        while True:  # until the workers are up and it answers
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=5) as r:
                    assert r.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.3)
        # a long request in flight (a generation no puzzle meets quickly) must not hold Ctrl-C back
        import json
        import threading

        answers: list[str] = []

        def long_request() -> None:
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/generate",
                                         data=json.dumps({"size": 9, "rating": "10.5-11.5"}).encode(),
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    answers.append(r.read().decode())
            except urllib.error.HTTPError as e:
                answers.append(e.read().decode())
            except OSError as e:
                answers.append(str(e))

        asker = threading.Thread(target=long_request)
        asker.start()
        time.sleep(0.5)  # in flight by then; a generation on a quiet machine gives up after about 1 s
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=15)
        took = time.monotonic() - start
        asker.join(10)
        err = proc.stderr.read() if proc.stderr else ""
        assert took < 5, took
        assert "Traceback" not in err and "ERROR" not in err, err
        assert err.strip() == "explain-sudoku: interrupted by SIGINT"
        assert answers and "the server is stopping" in answers[0], answers
        assert proc.returncode in (0, 130), (proc.returncode, err)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_bad_options_are_one_line(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notabank.sqlite"
    bad.write_text("hello")
    for argv, words in ((["--bank", str(tmp_path / "none.sqlite")], "--bank: "),
                        (["--bank", str(bad)], "--bank: "),
                        (["--host", "10.1.2.3"], "--host: 10.1.2.3 is not an address of this computer"),
                        (["--port", "0"], "--port")):
        assert main(["serve", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err
    assert bad.read_text() == "hello"


@pytest.mark.slow
def test_a_cancelled_long_hint_frees_its_worker() -> None:
    """The learner cancels (the browser closes the request): a job past a second ends with its
    worker (replaced), so the next request is not stuck behind it."""
    import json
    import threading

    import uvicorn

    port = free_port()
    app = create_app(Config(port=port, workers=1, hint_seconds=60), pool=Pool(1, factory=fake_handlers))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        import urllib.request

        def ask(sleep: float) -> dict[str, Any]:
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/hint",
                                         data=json.dumps({"sleep": sleep}).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as r:
                return dict(json.loads(r.read()))

        deadline = time.monotonic() + 60
        while True:
            try:
                first = ask(0)["pid"]
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.3)
        body = json.dumps({"sleep": 30}).encode()
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n%s" % (port, len(body), body))
            time.sleep(1.5)
        start = time.monotonic()
        after = ask(0)
        assert time.monotonic() - start < 20 and after["pid"] != first
    finally:
        server.should_exit = True
        thread.join(15)


SEED = (ROOT / "examples" / "seed.txt").read_text().split()[0]


def test_why_answers_the_seeds_mistakes_that_were_500s(client: TestClient) -> None:
    """docs/serve.md, Page asks: r1c2=5 and the removed 2 of r1c8 on the seed were 500s (a nested
    proof through a single the position had not placed yet: techniques/implication.py)."""
    from explainer.model.grid import parse_grid
    from explainer.model.state import State

    st = State.from_grid(parse_grid(SEED))
    marks = st.to_candidates_line()
    c = 7  # r1c8 written as "1.3..678."
    marks = marks[:c * 9] + "1.3..678." + marks[c * 9 + 9:]
    for body in ({"puzzle": SEED, "grid": SEED[:1] + "5" + SEED[2:], "marks": None,
                  "mistake": {"cell": "r1c2", "value": 5, "kind": "value"}},
                 {"puzzle": SEED, "grid": SEED, "marks": marks,
                  "mistake": {"cell": "r1c8", "value": 2, "kind": "removed"}}):
        r = client.post("/api/why", json=body)
        assert r.status_code == 200, r.text
        assert r.json()["step"]["proof"] and r.json()["scenes"]
