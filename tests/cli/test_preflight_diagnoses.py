"""Mistakes the command line diagnoses before anything starts: one line, no Prefect, no run.

A ticker only ./data/issuers.toml knows is refused by a replay run up front (the replay run
covers the bundled archive's issuers), and a truncated PDF is called damaged before any check
of whose it is.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from cli_helpers import filings

from flows.preflight import pdf_damage

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real" / "HK01856_2014FY_annual-results_en.pdf"
UNMAPPED = ROOT / "tests/fixtures/renderings/HK01149_2013H1_interim-results_zh.pdftocairo.pdf"
AXC = """[[issuer]]
ticker = "AXC"
name = "Anxin-China Holdings Limited"
hkex_code = "01149"
"""
EBH = """[[issuer]]
ticker = "EBH"
name = "Ernest Borel Holdings Limited"
hkex_code = "01856"
"""


def _one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and len(lines) == 1, (result.stdout, result.stderr)
    return lines[0]


def test_replay_run_refuses_a_ticker_only_the_live_issuers_file_knows(user):
    work, env = user
    (work / "data").mkdir()
    (work / "data" / "issuers.toml").write_text(EBH, encoding="utf-8")
    began = time.monotonic()
    result = filings(["run", "--source", "replay", "--issuer", "EBH"], work, env)
    took = time.monotonic() - began
    said = _one_line(result)
    assert said.startswith("error: unknown issuer EBH: configured are BKE, QFIN"), said
    assert "--source replay" in said and "data/issuers.toml" in said
    assert "Prefect" not in result.stderr  # no local API started, no run
    assert not (work / "data" / "replay").exists()  # no warehouse, no run row, no alert
    assert took < 20, took


@pytest.mark.parametrize("size", [5000, 300_000])
@pytest.mark.parametrize("issuer", [[], ["--issuer", "EBH"], ["--issuer", "QFIN"]])
def test_a_truncated_pdf_is_damaged_before_any_issuer_check(user, size, issuer):
    work, env = user
    bad = work / "bad.pdf"
    bad.write_bytes(REAL.read_bytes()[:size])
    said = _one_line(filings(["ingest", "bad.pdf", *issuer], work, env))
    assert said.startswith("error: bad.pdf: the PDF is damaged: "), said
    assert f"it has {size} of the {REAL.stat().st_size} bytes it declares" in said
    assert not (work / "data" / "warehouse.sqlite").exists()


def test_pdf_damage_of_complete_and_cut_files(tmp_path):
    complete = [*ROOT.glob("tests/fixtures/**/*.pdf"), *ROOT.glob("tasks/sources/**/*.pdf")]
    assert len(complete) > 5
    assert [p for p in complete if pdf_damage(p)] == []
    cut = tmp_path / "cut.pdf"  # not linearized: no declared length, no end marker
    cut.write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
    assert "without the end-of-file marker %%EOF" in str(pdf_damage(cut))
    cut.write_bytes(b"<html>not a pdf</html>")
    assert "not a PDF file" in str(pdf_damage(cut))


def test_a_pdf_whose_text_maps_to_no_character_is_refused_in_one_line(user):
    # the real Chinese interim results re-rendered by pdftocairo: its glyphs lost their
    # Unicode map (refused before as "no dateline or 'Date:' line found")
    work, env = user
    (work / "data").mkdir()
    (work / "data" / "issuers.toml").write_text(AXC, encoding="utf-8")
    copy = work / "axc.pdf"
    copy.write_bytes(UNMAPPED.read_bytes())
    said = _one_line(filings(["ingest", "axc.pdf"], work, env))
    assert said.startswith("error: axc.pdf: its text cannot be read: 16,102 of 20,382 "), said
    assert said.endswith("get the issuer's original file; nothing stored"), said
    assert not (work / "data" / "warehouse.sqlite").exists()
