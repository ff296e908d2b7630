"""``python manage.py render_seal`` draws a seal without the web or the worker."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from PIL import Image

from journal.seals import seal_filename

ROOT = Path(__file__).resolve().parents[2]


def test_it_renders_the_issues_example_as_an_a5_png(tmp_path):
    out = tmp_path / "seal.png"
    # The very command line from the issue, in a process of its own.
    result = subprocess.run(
        [sys.executable, "manage.py", "render_seal", "--cards", "M0,M19,9p", "--words", "a,b,c",
         "--format", "png", "--size", "a5", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ},
    )
    assert result.returncode == 0, result.stderr
    assert f"Wrote {out}" in result.stdout
    with Image.open(out) as image:
        assert image.size == (1748, 2480)
        assert tuple(round(d) for d in image.info["dpi"]) == (300, 300)


def test_the_format_follows_the_file_extension_and_words_default_to_keywords(tmp_path):
    out = tmp_path / "reading.svg"
    call_command("render_seal", cards="M1,Qc", size="10cm", out=str(out), stdout=io.StringIO())
    root = ET.fromstring(out.read_bytes())
    assert root.get("width") == "100mm"
    assert "(will)" in root.find("{http://www.w3.org/2000/svg}title").text


def test_without_out_it_writes_the_seals_own_name_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    call_command("render_seal", cards="M2,3c", words="moon,cups", fmt="pdf", size="letter", stdout=io.StringIO())
    expected = tmp_path / seal_filename(["M2", "3c"], ["moon", "cups"], "pdf", "letter")
    assert expected.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("options, message", [
    ({"cards": "M0,Z9"}, "Unknown card 'Z9'"),
    ({"cards": "M0"}, "A seal holds 2 to 5 cards; 1 was given"),
    ({"cards": "M0,M1,M2", "words": "one,two"}, "3 cards need 3 words"),
    ({"cards": "M0,M1", "size": "a3"}, "Unknown size 'a3'"),
])
def test_bad_input_is_a_clear_command_error_and_writes_nothing(tmp_path, options, message):
    out = tmp_path / "seal.png"
    with pytest.raises(CommandError, match=message):
        call_command("render_seal", out=str(out), stdout=io.StringIO(), **options)
    assert not out.exists()


def test_an_unwritable_target_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("render_seal", cards="M0,M1", out=str(tmp_path / "no" / "such" / "dir.png"),
                     stdout=io.StringIO())
