"""scripts/layer-check.py can fail: upward references added to a scratch copy of the sources are caught.

Each test copies Sources/Atelier into a temporary folder, changes the copy and runs the check on it.
"""
from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
CHECK = REPO / "scripts" / "layer-check.py"


def run_check(root: pathlib.Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECK), "--root", str(root), *args], capture_output=True, text=True)


@pytest.fixture
def scratch(tmp_path: pathlib.Path) -> pathlib.Path:
    shutil.copytree(REPO / "Sources" / "Atelier", tmp_path / "Sources" / "Atelier")
    return tmp_path


def test_the_tree_as_committed_passes(scratch: pathlib.Path) -> None:
    result = run_check(scratch)
    assert result.returncode == 0, result.stderr
    assert "— ok" in result.stdout


def test_core_naming_a_domain_type_fails(scratch: pathlib.Path) -> None:
    (scratch / "Sources/Atelier/Core/Scratch.swift").write_text(
        "import Foundation\n\nstruct ScratchHolder {\n    var product: Product?\n}\n")
    result = run_check(scratch)
    assert result.returncode == 1
    assert "Core names Catalog's types" in result.stderr
    assert "Core/Scratch.swift (Product)" in result.stderr


def test_a_lower_domain_naming_a_higher_one_fails(scratch: pathlib.Path) -> None:
    (scratch / "Sources/Atelier/Catalog/Services/Scratch.swift").write_text(
        "enum ScratchLookup {\n    static func run(_ moment: Moment) -> UUID? { moment.id }\n}\n")
    result = run_check(scratch)
    assert result.returncode == 1
    assert "Catalog names Moments' types" in result.stderr or "Catalog names Moments's types" in result.stderr


def test_a_higher_domain_may_name_a_lower_one(scratch: pathlib.Path) -> None:
    # The same folder pair, written in the other direction, is allowed: Commerce sits above Catalog.
    (scratch / "Sources/Atelier/Commerce/Services/Scratch.swift").write_text(
        "enum ScratchLookup {\n    static func run(_ product: Product) -> UUID? { product.id }\n}\n")
    assert run_check(scratch).returncode == 0


def test_mentions_in_comments_and_strings_do_not_count(scratch: pathlib.Path) -> None:
    (scratch / "Sources/Atelier/Core/Scratch.swift").write_text(
        '/// Unlike `Order`, this names no domain.\nlet scratchText = "Product and \\"Order\\""\n'
        'let scratchBlock = """\n    Moment\n    """\n')
    result = run_check(scratch)
    assert result.returncode == 0, result.stderr


def test_an_interpolation_is_code(scratch: pathlib.Path) -> None:
    (scratch / "Sources/Atelier/Core/Scratch.swift").write_text(
        'func scratchDescribe() -> String { "\\(Order.schema) rows" }\n')
    result = run_check(scratch)
    assert result.returncode == 1
    assert "Core names Commerce's types" in result.stderr


def test_an_exception_no_longer_needed_fails(scratch: pathlib.Path) -> None:
    check = (scratch / "layer-check.py")
    text = CHECK.read_text().replace("EXCEPTIONS: dict[str, str] = {", 'EXCEPTIONS: dict[str, str] = {\n    "Site -> Magazine": "stale",', 1)
    check.write_text(text)
    result = subprocess.run([sys.executable, str(check), "--root", str(scratch)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "'Site -> Magazine' is no longer needed" in result.stderr


def test_a_folder_on_no_layer_fails(scratch: pathlib.Path) -> None:
    (scratch / "Sources/Atelier/Elsewhere").mkdir()
    (scratch / "Sources/Atelier/Elsewhere/Scratch.swift").write_text("struct ScratchThing {}\n")
    result = run_check(scratch)
    assert result.returncode == 1
    assert "Elsewhere" in result.stderr


def test_the_graph_is_drawn(scratch: pathlib.Path, tmp_path: pathlib.Path) -> None:
    dot = tmp_path / "layers.dot"
    result = run_check(scratch, "--dot", str(dot))
    assert result.returncode == 0, result.stderr
    text = dot.read_text()
    assert '"Catalog" -> "Core"' in text and "rank=same" in text
