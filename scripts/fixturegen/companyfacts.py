"""QFIN's XBRL company facts in SEC's real shape (that of LPA's body in
tests/fixtures/reference/sec): ``facts -> taxonomy -> concept -> units -> [{start, end, val,
accn, fy, fp, form, filed, frame}]``.

The figures are the seeds' audited years as the statements print them (RMB thousands, times
1,000): FY2022 and FY2023 from the Q4 2023 6-K (2024-03-12), FY2024 from the Q4 2024 results
announcement (HKEx, 2025-03-17). Each 20-F carries its year and the year before, like a real
20-F. One concept differs from the releases on purpose, so a replay run shows the audited
witness at work: FY2023 NetIncomeLoss (net income attributable to the Company) is 4,275,136
thousand in both 20-Fs against the releases' 4,285,336. The FY2024 20-F also tags its
convenience translations in USD (as Chinese filers do); the parser keeps only RMB. Accession
numbers and filing dates are synthetic (QFIN's real 20-Fs are not in the seeds).
"""

from __future__ import annotations

from pathlib import Path

from fixturegen.edgar_meta import dump_json

CIK = "0001741530"
FY2023_20F = ("0001104659-24-051187", "2024-04-26", 2023)
FY2024_20F = ("0001104659-25-034412", "2025-04-10", 2024)
YEARS = {2022: ("2022-01-01", "2022-12-31"), 2023: ("2023-01-01", "2023-12-31"),
         2024: ("2024-01-01", "2024-12-31")}  # fmt: skip
# concept -> {year: value in RMB thousands (EPS: RMB per share)}, as the seeds print them
FLOWS = {
    "Revenues": {2022: 16_553_930, 2023: 16_290_027, 2024: 17_165_656},
    "OperatingIncomeLoss": {2022: 4_472_184, 2023: 4_856_964, 2024: 7_528_570},
    "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest": {
        2022: 4_742_372, 2023: 5_277_451, 2024: 7_892_422},
    "IncomeTaxExpenseBenefit": {2022: 736_804, 2023: 1_008_874, 2024: 1_644_306},
    "ProfitLoss": {2022: 4_005_568, 2023: 4_268_577, 2024: 6_248_116},
    # the releases print 4,285,336 for 2023: the one figure the 20-Fs contradict
    "NetIncomeLoss": {2022: 4_024_173, 2023: 4_275_136, 2024: 6_264_314},
    "NetCashProvidedByUsedInOperatingActivities": {2022: 5_922_515, 2023: 7_118_350,
                                                   2024: 9_343_311},
}  # fmt: skip
PER_SHARE = {
    "EarningsPerShareBasic": {2022: "12.87", 2023: "13.36", 2024: "21.02"},
    "EarningsPerShareDiluted": {2022: "12.50", 2023: "13.04", 2024: "20.64"},
}
INSTANTS = {
    "CashAndCashEquivalentsAtCarryingValue": {2022: 7_165_584, 2023: 4_177_890,
                                              2024: 4_452_416},
    "Assets": {2022: 40_343_170, 2023: 45_818_572, 2024: 48_132_618},
    "Liabilities": {2022: 21_411_873, 2023: 23_808_715, 2024: 23_886_399},
    "StockholdersEquity": {2022: 18_847_156, 2023: 21_937_483, 2024: 24_190_043},
    "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest": {
        2022: 18_931_297, 2023: 22_009_857, 2024: 24_246_219},
    "LiabilitiesAndStockholdersEquity": {2022: 40_343_170, 2023: 45_818_572,
                                         2024: 48_132_618},
}  # fmt: skip
# The FY2024 20-F's convenience translations (US$ thousands at RMB7.2993), current year only.
USD_2024 = {"Revenues": 2_351_685, "NetIncomeLoss": 858_206}


def _item(filing: tuple[str, str, int], year: int, value: object, instant: bool) -> dict:
    accn, filed, fy = filing
    start, end = YEARS[year]
    item = {"end": end, "val": value, "accn": accn, "fy": fy, "fp": "FY", "form": "20-F",
            "filed": filed}  # fmt: skip
    if not instant:
        item["start"] = start
    # SEC frames a period's fact in the latest filing that reports it
    if fy == 2024 or year == 2022:
        item["frame"] = f"CY{year}Q4I" if instant else f"CY{year}"
    return item


def _series(values: dict[int, object], instant: bool, scale: int = 1000) -> list[dict]:
    items = []
    for filing in (FY2023_20F, FY2024_20F):
        for year in (filing[2] - 1, filing[2]):
            value = values[year]
            items.append(_item(filing, year, value * scale if scale != 1 else value, instant))
    return items


def company_facts() -> dict[str, object]:
    """The body SEC's companyfacts endpoint answers for QFIN, in its real shape."""
    gaap: dict[str, object] = {}
    for concept, values in FLOWS.items():
        units: dict[str, list[dict]] = {"CNY": _series(values, instant=False)}
        if concept in USD_2024:
            units["USD"] = [_item(FY2024_20F, 2024, USD_2024[concept] * 1000, instant=False)]
        gaap[concept] = {"label": concept, "description": None, "units": units}
    for concept, per_share in PER_SHARE.items():
        series = _series({y: float(v) for y, v in per_share.items()}, instant=False, scale=1)
        gaap[concept] = {"label": concept, "description": None, "units": {"CNY/shares": series}}
    for concept, values in INSTANTS.items():
        units = {"CNY": _series(values, instant=True)}
        gaap[concept] = {"label": concept, "description": None, "units": units}
    dei = {
        "EntityCommonStockSharesOutstanding": {
            "label": "Entity Common Stock, Shares Outstanding",
            "description": None,
            "units": {
                "shares": [
                    {
                        "end": "2024-03-31",
                        "val": 317_566_126,
                        "accn": FY2023_20F[0],
                        "fy": 2023,
                        "fp": "FY",
                        "form": "20-F",
                        "filed": FY2023_20F[1],
                    },
                    {
                        "end": "2025-03-31",
                        "val": 311_042_390,
                        "accn": FY2024_20F[0],
                        "fy": 2024,
                        "fp": "FY",
                        "form": "20-F",
                        "filed": FY2024_20F[1],
                        "frame": "CY2025Q1I",
                    },
                ]
            },
        }
    }
    return {"cik": int(CIK), "entityName": "Qifu Technology, Inc.",
            "facts": {"dei": dei, "us-gaap": gaap}}  # fmt: skip


def build(root: Path) -> str:
    """Write QFIN's company facts under ``root``; return its path relative to ``root``."""
    rel = f"sec/{CIK}/companyfacts/CIK{CIK}.json"
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(dump_json(company_facts()))
    return rel
