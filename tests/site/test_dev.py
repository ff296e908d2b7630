"""dev.py, the two commands of the README: stdlib only, quick when nothing changed."""

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
STDLIB = set(sys.stdlib_module_names)


def load_dev():
    spec = importlib.util.spec_from_file_location("dev", BASE_DIR / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dev_py_needs_nothing_but_the_standard_library():
    tree = ast.parse((BASE_DIR / "dev.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0}

    assert imported - {"__future__"} <= STDLIB


def test_dev_py_explains_itself_when_asked_nothing():
    result = subprocess.run([sys.executable, "dev.py"], cwd=BASE_DIR, capture_output=True, text=True, timeout=60)

    assert result.returncode == 2
    assert "python3.11 dev.py run" in result.stderr and "python3.11 dev.py test" in result.stderr


def test_pip_runs_again_only_when_pyproject_changed(tmp_path, monkeypatch):
    dev = load_dev()
    monkeypatch.setattr(dev, "STAMP", tmp_path / "stamp.json")
    installs = []
    # Stands in for pip only; what is under test is when dev.py decides to call it.
    monkeypatch.setattr(dev, "run", lambda command, **kwargs: installs.append(command[-1]))

    dev.ensure_installed({"test"})
    dev.ensure_installed({"test"})
    dev.ensure_installed(set())  # a run after a test install needs nothing more
    assert installs == [".[test]"]

    (tmp_path / "stamp.json").write_text('{"pyproject": "an older one", "extras": ["test"]}')
    dev.ensure_installed(set())
    assert installs == [".[test]", "."]
    dev.ensure_installed({"test"})  # the run install had no test tools
    assert installs == [".[test]", ".", ".[test]"]


def test_the_whole_suite_runs_in_parallel_ending_with_its_slowest_and_named_tests_in_one_process():
    dev = load_dev()

    whole = dev.PARALLEL + ["--durations=20"]
    assert dev.parallel_unless_chosen([]) == whole
    assert dev.parallel_unless_chosen(["-x", "--backend-tests-only"]) == whole
    assert dev.parallel_unless_chosen(["-k", "hallow"]) == whole  # a filter over the whole suite
    assert dev.parallel_unless_chosen(["tests/site", "-x"]) == []
    assert dev.parallel_unless_chosen(["tests/site/test_dev.py::test_dev_py_explains_itself_when_asked_nothing"]) == []
    assert dev.parallel_unless_chosen(["-n", "2"]) == dev.parallel_unless_chosen(["-p", "no:xdist"]) == []


def test_the_second_pass_repeats_what_reaches_a_backend_but_not_what_only_looks():
    """--backend-tests-only (.ci/run's second pass, tests/support/passes.py): a test of the
    engine is left out, a test through the test client is kept, a browser test that only
    checks how a page looks (marked `looks`) is left out, and the end says why for each."""
    files = ["tests/engine/test_cards.py", "tests/games/test_pages.py", "tests/games/test_phone_and_boards.py"]
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                             "-p", "no:cacheprovider", "--backend-tests-only", *files],
                            cwd=BASE_DIR, capture_output=True, text=True, timeout=300)

    collected = [line for line in result.stdout.splitlines() if "::" in line]
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert any(line.startswith("tests/games/test_pages.py::") for line in collected)
    assert not any(line.startswith(("tests/engine/", "tests/games/test_phone_and_boards.py")) for line in collected)
    why_engine, why_looks = result.stdout.split("Left out because ")[1:]
    assert "no database" in why_engine and "tests/engine/test_cards.py" in why_engine
    assert "look like" in why_looks and "tests/games/test_phone_and_boards.py" in why_looks
