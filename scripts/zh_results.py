"""Draw the Chinese editions of an HKEx results announcement used by the tests (assembled).

What is real: every figure is Qifu Technology's (HKEx 3660) for the years ended December 31,
2023 and 2024 as printed in its HKEx results announcement of March 17, 2025
(tests/fixtures/seeds/hkex_03660_2025-03-17_q4-2024-results.txt, thousands of RMB); the
titles, scale lines, date headers and labels are the words HKEx Chinese editions print
(綜合財務狀況表 / 綜合損益表 / 綜合現金流量表, 人民幣千元 / 人民幣百萬元,
截至二零二四年十二月三十一日止年度).
What is assembled: the PDF itself (reportlab, Adobe's CID font STSong-Light, not embedded, for
both editions: its Adobe-GB1 collection carries traditional characters too, and pdfminer
misreads the non-embedded Adobe-CNS1 font MSung-Light without a ToUnicode map), a subset of
the statements' lines (each statement's totals and a few lines above them), and the simplified
edition's figures restated in millions (rounded to 0.1 million as such editions print them).

Deterministic (``invariant=1``). Usage:
``.venv/bin/python scripts/zh_results.py [--out tests/fixtures/assembled]``
"""

from __future__ import annotations

import argparse
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "assembled"
NAMES = {
    "hant": "hkex_03660_2025-03-17_fy-2024-results_zh-hant_assembled.pdf",
    "hans": "hkex_03660_2025-03-17_fy-2024-results_zh-hans_assembled.pdf",
}
FONTS = {"hant": "STSong-Light", "hans": "STSong-Light"}

# (traditional label, simplified label, 2023, 2024) in thousands of RMB; "" values: a heading
BALANCE = [
    ("流動資產", "流动资产", "", ""),
    ("現金及現金等價物", "现金及现金等价物", "4,177,890", "4,452,416"),
    ("受限制現金", "受限制现金", "3,381,107", "2,353,384"),
    ("流動資產總值", "流动资产总值", "39,796,028", "42,780,568"),
    ("非流動資產總值", "非流动资产总值", "6,022,544", "5,352,050"),
    ("資產總值", "资产总值", "45,818,572", "48,132,618"),
    ("流動負債總額", "流动负债总额", "19,899,619", "17,472,209"),
    ("非流動負債總額", "非流动负债总额", "3,909,096", "6,414,190"),
    ("負債總額", "负债总额", "23,808,715", "23,886,399"),
    ("權益總額", "权益总额", "22,009,857", "24,246,219"),
    ("負債及權益總額", "负债及权益总额", "45,818,572", "48,132,618"),
]
INCOME = [
    ("收益總額", "收益总额", "16,290,027", "17,165,656"),
    ("經營成本及開支總額", "经营成本及开支总额", "(11,433,063)", "(9,637,086)"),
    ("經營溢利", "经营溢利", "4,856,964", "7,528,570"),
    ("除所得稅前溢利", "除所得税前溢利", "5,277,451", "7,892,422"),
    ("所得稅開支", "所得税开支", "(1,008,874)", "(1,644,306)"),
    ("年內溢利", "年内溢利", "4,268,577", "6,248,116"),
    ("本公司普通股股東應佔溢利", "本公司普通股股东应占溢利", "4,285,336", "6,264,314"),
]
CASH = [
    ("經營活動所得現金淨額", "经营活动所得现金净额", "7,118,350", "9,343,311"),
    ("投資活動所用現金淨額", "投资活动所用现金净额", "(11,147,789)", "(7,994,081)"),
    (
        "融資活動所得／（所用）現金淨額",
        "融资活动所得／（所用）现金净额",
        "1,066,458",
        "(2,114,463)",
    ),
    ("匯率變動影響", "汇率变动影响", "9,615", "12,036"),
    (
        "現金、現金等價物及受限制現金（減少）淨額",
        "现金、现金等价物及受限制现金（减少）净额",
        "(2,953,366)",
        "(753,197)",
    ),
    (
        "年初現金、現金等價物及受限制現金",
        "年初现金、现金等价物及受限制现金",
        "10,512,363",
        "7,558,997",
    ),
    (
        "年末現金、現金等價物及受限制現金",
        "年末现金、现金等价物及受限制现金",
        "7,558,997",
        "6,805,800",
    ),
]
WORDS = {
    "hant": {
        "disclaimer": "香港交易及結算所有限公司及香港聯合交易所有限公司對本公告的內容概不負責。",
        "company": "奇富科技股份有限公司",
        "code": "（股份代號：3660）",
        "headline": "截至二零二四年十二月三十一日止年度之未經審核財務業績公告",
        "dateline": "香港，二零二五年三月十七日",
        "balance": "綜合財務狀況表",
        "income": "綜合損益表",
        "cash": "綜合現金流量表",
        "at": "於十二月三十一日",
        "year": "截至十二月三十一日止年度",
        "scale": "人民幣千元",
        "years": ("二零二三年", "二零二四年"),
    },
    "hans": {
        "disclaimer": "香港交易及结算所有限公司及香港联合交易所有限公司对本公告的内容概不负责。",
        "company": "奇富科技股份有限公司",
        "code": "（股份代号：3660）",
        "headline": "截至2024年12月31日止年度之未经审核财务业绩公告",
        "dateline": "香港，2025年3月17日",
        "balance": "综合财务状况表",
        "income": "综合损益表",
        "cash": "综合现金流量表",
        "at": "于12月31日",
        "year": "截至12月31日止年度",
        "scale": "人民币百万元",
        "years": ("2023年", "2024年"),
    },
}


def millions(figure: str) -> str:
    """ "45,818,572" (thousands) -> "45,818.6" (millions, one decimal); parentheses kept."""
    if not figure:
        return figure
    negative = figure.startswith("(")
    value = Decimal(figure.strip("()").replace(",", "")) / 1000
    text = f"{value.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP):,}"
    return f"({text})" if negative else text


def draw(path: Path, script: str) -> None:
    """One edition: a cover paragraph and the three primary statements on one page each."""
    font = FONTS[script]
    pdfmetrics.registerFont(UnicodeCIDFont(font))
    words = WORDS[script]
    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    pdf.setTitle(words["headline"])
    y = _lines(pdf, font, 800, [words["disclaimer"], words["company"], words["code"]])
    _lines(pdf, font, y - 10, [words["headline"], words["dateline"]])
    for title, period, rows in (
        (words["balance"], words["at"], BALANCE),
        (words["income"], words["year"], INCOME),
        (words["cash"], words["year"], CASH),
    ):
        pdf.showPage()
        _statement(pdf, font, script, title, period, rows)
    pdf.save()


def _lines(pdf: canvas.Canvas, font: str, y: float, lines: list[str]) -> float:
    for line in lines:
        pdf.setFont(font, 10)
        pdf.drawString(20 * mm, y, line)
        y -= 16
    return y


def _statement(
    pdf: canvas.Canvas,
    font: str,
    script: str,
    title: str,
    period: str,
    rows: list[tuple[str, str, str, str]],
) -> None:
    words = WORDS[script]
    left, first, second = 20 * mm, 140 * mm, 180 * mm
    pdf.setFont(font, 12)
    pdf.drawString(left, 800, title)
    pdf.setFont(font, 9)
    pdf.drawString(left, 780, period)
    pdf.drawRightString(first, 760, words["years"][0])
    pdf.drawRightString(second, 760, words["years"][1])
    pdf.drawRightString(first, 746, words["scale"])
    pdf.drawRightString(second, 746, words["scale"])
    y = 726.0
    for hant, hans, old, new in rows:
        label = hant if script == "hant" else hans
        if script == "hans":
            old, new = millions(old), millions(new)
        pdf.drawString(left, y, label)
        pdf.drawRightString(first, y, old)
        pdf.drawRightString(second, y, new)
        y -= 16


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    for script, name in NAMES.items():
        draw(out / name, script)
        print(out / name)


if __name__ == "__main__":
    main()
