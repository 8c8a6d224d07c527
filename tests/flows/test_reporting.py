"""Guidance versus actual: the view read back, the chart (PNG + HTML), `filings report/status`."""

import re
from datetime import UTC, date, datetime
from decimal import Decimal

import numpy as np
import pytest
from matplotlib import image
from typer.testing import CliRunner

from domain.records import DocumentRef, Fact, Guidance, Issuer, NewAlert, Provenance
from flows.cli import app
from storage.alerts import add_alerts
from storage.documents import record_documents, upsert_issuers
from storage.loading import load_document
from tasks.runs.guidance_report import OUTCOME_COLOURS, quarter_label, read_guidance, write_report

QFIN = Issuer(ticker="QFIN", name="Qifu Technology, Inc.", cik="0001741530", hkex_code="03660")
Q4_2023 = (date(2023, 10, 1), date(2023, 12, 31))
Q2_2024 = (date(2024, 4, 1), date(2024, 6, 30))
Q3_2024 = (date(2024, 7, 1), date(2024, 9, 30))
Q4_2024 = (date(2024, 10, 1), date(2024, 12, 31))
runner = CliRunner()


def _ref(source_id: str, day: int) -> DocumentRef:
    return DocumentRef(
        source="sec",
        source_id=source_id,
        issuer="QFIN",
        form="6-K",
        title=f"results {source_id}",
        published_at=datetime(2024, 1, day, tzinfo=UTC),
        url=f"https://example.test/{source_id}",
    )


def _prov(text: str) -> Provenance:
    return Provenance("ex99-1.htm", "paragraph 1", "Business Outlook", "", text)


def _actual(period, value: str) -> Fact:
    return Fact("net_income", *period, Decimal(value), "CNY", 3, -3, _prov(value))


def _guided(period, low: str, high: str) -> Guidance:
    return Guidance(
        "net_income", *period, Decimal(low), Decimal(high), "CNY", date(2024, 1, 2), _prov(low)
    )


@pytest.fixture
def loaded(engine):
    """Hand-made guidance (one document) and actuals (another), as QFIN printed them."""
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, [_ref("guidance", 2), _ref("actuals", 3)])
    guidance = [
        _guided(Q4_2023, "1150000000", "1250000000"),  # actual 1,107.7m: below
        _guided(Q2_2024, "1300000000", "1400000000"),  # actual 1,376.5m: within
        _guided(Q3_2024, "1500000000", "1600000000"),  # no actual yet: pending
        _guided(Q4_2024, "1600000000", "1700000000"),  # actual 1,912.7m: above
    ]
    load_document(engine, "sec:guidance", [], [], quarantine=False, guidance=guidance)
    actuals = [
        _actual(Q4_2023, "1107688000"),
        _actual(Q2_2024, "1376508000"),
        _actual(Q4_2024, "1912667000"),
    ]
    load_document(engine, "sec:actuals", actuals, [], quarantine=False)
    return engine


def test_read_guidance_gives_outcomes_and_exact_amounts(loaded):
    rows = read_guidance(loaded)
    assert [(quarter_label(r.period_start, r.period_end), r.outcome) for r in rows] == [
        ("2023Q4", "below"),
        ("2024Q2", "within"),
        ("2024Q3", "pending"),
        ("2024Q4", "above"),
    ]
    within = rows[1]
    assert (within.guidance_low, within.actual) == (Decimal("1300000000"), Decimal("1376508000"))
    assert within.variance_pct == pytest.approx(Decimal("1.9636"), abs=Decimal("0.0001"))
    assert rows[2].actual is None and rows[2].actual_document_id is None


def test_read_guidance_of_an_issuer_without_guidance_is_empty(loaded):
    assert read_guidance(loaded, ["OTHER"]) == []


def test_html_chart_draws_a_band_per_quarter_and_a_point_per_actual(loaded, tmp_path):
    files = write_report(read_guidance(loaded), tmp_path)
    page = files.html.read_text()
    for quarter in ("2023Q4", "2024Q2", "2024Q3", "2024Q4"):
        assert f'id="band-QFIN-net_income-{quarter}"' in page
    for quarter in ("2023Q4", "2024Q2", "2024Q4"):
        assert f'id="actual-QFIN-net_income-{quarter}"' in page
    assert 'id="actual-QFIN-net_income-2024Q3"' not in page  # pending: nothing to plot
    assert "<td>1376508000</td>" in page and "<tr class='above'>" in page
    assert page.count("<svg") == 1 and "<?xml" not in page


def _pixels_near(picture: np.ndarray, colour: str, tolerance: float = 0.06) -> int:
    rgb = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return int((np.abs(picture[:, :, :3] - rgb).max(axis=2) < tolerance).sum())


def test_png_chart_shows_the_band_and_an_outcome_coloured_point_each(loaded, tmp_path):
    files = write_report(read_guidance(loaded), tmp_path)
    assert files.png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    picture = image.imread(files.png)
    assert picture.shape[1] == 880  # 8 inches at 110 dpi
    assert _pixels_near(picture, "#9ecae1") > 2000  # four bands
    for outcome in ("above", "within", "below"):
        assert _pixels_near(picture, OUTCOME_COLOURS[outcome]) > 10, outcome


@pytest.fixture
def cli_env(monkeypatch, tmp_path, loaded, db_url):
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")  # a plain terminal
    return tmp_path


def test_filings_report_prints_each_issuer_and_writes_the_chart(cli_env):
    result = runner.invoke(app, ["report"])
    assert result.exit_code == 0, result.output
    assert "QFIN" in result.output and "2024Q2" in result.output
    table = [line for line in result.output.splitlines() if not line.startswith("chart: ")]
    assert max(len(line) for line in table) <= 80, result.output  # file paths aside
    # every figure whole at 80 columns: money in exact millions, the metric's name in words
    assert "1,376.508" in result.output and "within" in result.output
    assert "1,500–1,600" in result.output and "CNY m" in result.output
    assert "Net income" in result.output and "net_income" not in result.output
    assert "…" not in result.output
    assert (cli_env / "reports" / "guidance.png").stat().st_size > 10_000
    page = (cli_env / "reports" / "guidance.html").read_text()
    assert "band-QFIN-net_income-2024Q4" in page
    # the chart says in words what it shows: the metric's name and a legend
    assert "QFIN: Net income, guidance versus actual" in page
    for entry in ("guided range", "actual: above", "actual: within", "actual: below"):
        assert entry in page, entry


def test_filings_report_on_an_unknown_issuer_fails_in_one_line(cli_env):
    result = runner.invoke(app, ["report", "--issuer", "NOPE"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "NOPE" in lines[0]


def test_filings_status_shows_documents_by_status_and_undelivered_alerts(cli_env, loaded):
    with loaded.begin() as conn:
        (alert_id,) = add_alerts(
            conn, [NewAlert("data_quality", "QFIN", "a check failed", "details", "k:1")]
        )
    result = runner.invoke(app, ["status"])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80, result.output
    assert "…" not in result.output  # nothing cut at 80 columns
    assert "loaded" in result.output and alert_id in result.output
    assert "a check failed" in result.output


def test_the_chart_explains_only_what_it_shows_in_the_units_it_shows(loaded, tmp_path):
    rows = [r for r in read_guidance(loaded) if r.outcome in ("above", "pending")]
    page = write_report(rows, tmp_path).html.read_text()
    svg = page[page.find("<svg") : page.find("</svg>")]
    assert "actual: above" in svg  # the legend: the band and the outcomes that occur
    assert "actual: within" not in svg and "actual: below" not in svg
    # the caption says what is in millions (the chart) and what is exact (the tables)
    assert "Money in millions." not in page
    assert "exact amounts in whole units" in page and "<td>1912667000</td>" in page
    variance = re.search(r"<td>above</td><td>([-\d.]+)</td>", page)
    assert variance and re.fullmatch(r"\d+\.\d\d", variance[1]), variance  # two places
