"""Corrections of PDF-extraction damage inside the TABLES of the Q2 2024 6-K seed.

A real EDGAR HTML exhibit has clean tables, so the HTML/PDF fixtures are built from a repaired
copy of the seed. Each correction is applied to the seed text exactly once (else the build fails)
and is justified by the document's own arithmetic or layout. Narrative text is never touched:
"RMB71.860 million", "RMB23.464 million", "second guarter" stay for validation to catch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fixturegen.ex992 import EX992_TABLES


@dataclass(frozen=True)
class Fix:
    """Replace the one match of ``pattern`` (a regex, DOTALL) by ``new``; ``why`` is the proof."""

    pattern: str
    new: str
    why: str


def _lit(text: str) -> str:
    return re.escape(text)


Q2_2024_FIXES: tuple[Fix, ...] = (
    # --- Balance sheet ---
    Fix(
        _lit("\t,\t,,,.\t2,122,002\n"),
        "",
        "stray glyph line after TOTAL ASSETS; no label, totals tie without it",
    ),
    Fix(
        _lit("Non-current liabilities:\t17,077,017\t10,000,020\t2,020,203"),
        "Non-current liabilities:\t\t\t",
        "section heading carries no amounts; 224,823+3,581,800+102,473=3,909,096 without them",
    ),
    Fix(
        _lit("TOTAL CIABILITIES TOTAL QIFU TECHNOLOGY INC EQUITY\t"),
        "TOTAL QIFU TECHNOLOGY INC EQUITY\t",
        "'TOTAL CIABILITIES' is a ghost of the TOTAL LIABILITIES row just above",
    ),
    Fix(
        _lit(
            "Noncontrolling interests TOTAL EQUITY\t72,374 22,009,857\t64,211 22,632,979\t"
            "8,836 3,114,400"
        ),
        "Noncontrolling interests\t72,374\t64,211\t8,836\n"
        "TOTAL EQUITY\t22,009,857\t22,632,979\t3,114,400",
        "two rows merged: 21,937,483+72,374=22,009,857; 22,568,768+64,211=22,632,979; "
        "3,105,564+8,836=3,114,400",
    ),
    Fix(
        _lit(
            "TOTAL LIABILITIES AND EQUITY\t\t\t6,465,081\n"
            "TOTAL LIABILITIES AND EQUITY\t45,818,572\t46,983,049\t0,405,081"
        ),
        "TOTAL LIABILITIES AND EQUITY\t45,818,572\t46,983,049\t6,465,081",
        "one row split in two with '0,405,081' misread: equals TOTAL ASSETS 6,465,081 and "
        "3,350,681+3,114,400=6,465,081",
    ),
    # --- Statements of operations ---
    Fix(
        _lit("\tThree months ended June 30,\t\tSix m\tSix months ended June\t\t"),
        "\tThree months ended June 30,\t\t\tSix months ended June 30,\t\t",
        "period header split; the six-month columns are 4-6 as the year row shows",
    ),
    Fix(
        _lit(
            "Net income per ordinary share attributable to ordinary\tshareholders of Q\t"
            "ifu Technology,\tInc.\t\t\t"
        ),
        "Net income per ordinary share attributable to ordinary shareholders of Qifu "
        "Technology, Inc.\t\t\t\t\t\t",
        "a label spilled into value cells (same caption as the Q4 2023 statement)",
    ),
    Fix(
        _lit(
            "Net income per ADS attributable to ordinary sharehold\tders of Oifu Techr\t"
            "nology, Inc.\t\t\t\t"
        ),
        "Net income per ADS attributable to ordinary shareholders of Qifu Technology, Inc."
        "\t\t\t\t\t\t",
        "a label spilled into value cells (same caption as the Q4 2023 statement)",
    ),
    Fix(
        _lit(
            "Weighted average shares used in calculating net incom\tne per ordinary sha\t"
            "are\t\t\t\t"
        ),
        "Weighted average shares used in calculating net income per ordinary share\t\t\t\t\t\t",
        "a label spilled into value cells (same caption as the Q4 2023 statement)",
    ),
    # --- Statements of cash flows ---
    Fix(
        _lit("\tThree months ended June 30,\t\t\tSix mo\tnths ended June\t30,"),
        "\tThree months ended June 30,\t\t\tSix months ended June 30,\t\t",
        "period header split across cells",
    ),
    Fix(
        _lit("-\tRMB\tRMB\tUSD\tRMB\tRMB\tUSD"),
        "\tRMB\tRMB\tUSD\tRMB\tRMB\tUSD",
        "stray '-' in the currency header row",
    ),
    # --- Statements of comprehensive income: labels lost, numbers intact ---
    Fix(
        r"\t\t0,\n2023\t2024\t2024\n.*?\n\tRMB 1,093,377[^\n]*\n",
        "\tThree months ended June 30,\t\t\n\t2023\t2024\t2024\n\tRMB\tRMB\tUSD\n"
        "Net income\t1,093,377\t1,376,508\t189,412\n"
        "Other comprehensive income, net of tax of nil:\t\t\t\n"
        "Foreign currency translation adjustment\t19,482\t1,890\t260\n"
        "Other comprehensive income\t19,482\t1,890\t260\n"
        "Total comprehensive income\t1,112,859\t1,378,398\t189,672\n"
        "Comprehensive loss attributable to noncontrolling interests\t4,063\t4,020\t553\n"
        "Comprehensive income attributable to ordinary shareholders\t1,116,922\t1,382,418"
        "\t190,225\n"
        "\tSix months ended June 30,\t\t\n\t2023\t2024\t2024\n\tRMB\tRMB\tUSD\n"
        "Net income\t2,023,199\t2,536,652\t349,056\n"
        "Other comprehensive income, net of tax of nil:\t\t\t\n"
        "Foreign currency translation adjustment\t16,673\t3,900\t537\n"
        "Other comprehensive income\t16,673\t3,900\t537\n"
        "Total comprehensive income\t2,039,872\t2,540,552\t349,593\n"
        "Comprehensive loss attributable to noncontrolling interests\t8,350\t8,163\t1,123\n"
        "Comprehensive income attributable to ordinary shareholders\t2,048,222\t2,548,715"
        "\t350,716\n",
        "labels lost in extraction; rows are the Q4 2023 template (same issuer) and tie: "
        "net income = statement of operations, NI+OCI=total (1,093,377+19,482=1,112,859), "
        "total+NCI loss=attributable (1,112,859+4,063=1,116,922), same for every column",
    ),
    # --- Non-GAAP reconciliation, three months ---
    Fix(
        _lit("\tThree n\tnonths ended June 30\t,\n"),
        "\tThree months ended June 30,\t\t\n",
        "period header split across cells",
    ),
    Fix(
        _lit("N. C.\t1.005.440\t1 200 520\t100.065\n"),
        "",
        "garbled ghost of the next row (1,097,440 1,380,528 189,965)",
    ),
    Fix(
        _lit("GAAP operating margin\t30.2%\t47.7%\t270,221"),
        "GAAP operating margin\t30.2%\t47.7%\t",
        "margins have no USD column (as every other margin row); 270,221 is a ghost of 278,221",
    ),
    Fix(
        _lit("Ton-On the operating margin\t31.370\t40.070\t\n"),
        "",
        "garbled duplicate of the Non-GAAP operating margin row above",
    ),
    # --- Non-GAAP reconciliation, six months: merged into one line; rebuilt ---
    Fix(
        r"\tSix n\tonths ended June 30\t\n.*?(?=\n\nDIFFERENCES BETWEEN)",
        "\tSix months ended June 30,\t\t\n\t2023\t2024\t2024\n\tRMB\tRMB\tUSD\n"
        "Reconciliation of Non-GAAP Net Income to Net Income\t\t\t\n"
        "Net income\t2,023,199\t2,536,652\t349,056\n"
        "Add: Share-based compensation expenses\t99,743\t81,554\t11,222\n"
        "Non-GAAP net income\t2,122,942\t2,618,206\t360,278\n"
        "GAAP net income margin\t26.9%\t30.5%\t\n"
        "Non-GAAP net income margin\t28.3%\t31.5%\t\n"
        "Net income attributable to shareholders of Qifu Technology, Inc.\t2,031,549\t2,544,815"
        "\t350,179\n"
        "Add: Share-based compensation expenses\t99,743\t81,554\t11,222\n"
        "Non-GAAP net income attributable to shareholders of Qifu Technology, Inc.\t2,131,292"
        "\t2,626,369\t361,401\n"
        "Weighted average ADS used in calculating net income per ordinary share for both GAAP "
        "and non-GAAP EPS - diluted\t165,559,445\t157,122,212\t157,122,212\n"
        "Net income per ADS attributable to ordinary shareholders of Qifu Technology, Inc"
        "\t\t\t\n"
        "diluted\t12.28\t16.20\t2.22\n"
        "Non-GAAP net income per ADS attributable to ordinary shareholders of Qifu\t\t\t\n"
        "Technology, Inc diluted\t12.87\t16.72\t2.30\n"
        "Reconciliation of Non-GAAP Income from operations to Income from operations\t\t\t\n"
        "Income from operations\t2,188,530\t3,349,087\t460,851\n"
        "Add: Share-based compensation expenses\t99,743\t81,554\t11,222\n"
        "Non-GAAP Income from operations\t2,288,273\t3,430,641\t472,073\n"
        "GAAP operating margin\t29.1%\t40.3%\t\n"
        "Non-GAAP operating margin\t30.5%\t41.3%\t",
        "all labels and values sit on one line in the seed, in row order; values are the seed's. "
        "Not in the seed, derived by the document's arithmetic: USD 2.22 (statement of "
        "operations, six months diluted per ADS), USD 2.30 = 361,401/157,122.212, Non-GAAP "
        "income from operations = income from operations + SBC (2,188,530+99,743=2,288,273; "
        "3,349,087+81,554=3,430,641; 460,851+11,222=472,073), operating margins = income from "
        "operations / total net revenue (2,188,530/7,513,498=29.1%, 3,349,087/8,313,246=40.3%, "
        "2,288,273/7,513,498=30.5%, 3,430,641/8,313,246=41.3%)",
    ),
    # --- EX-99.2 appendix: headers garbled, nil cells as '_', ghost rows; see ex992.py ---
    Fix(
        r"\t\t\tEffective\t\t\t\n.*?(?=\nNotes:)",
        EX992_TABLES,
        "reconciliation tables rebuilt; the row-by-row corrections are listed in ex992.py",
    ),
)


def apply_fixes(text: str, fixes: tuple[Fix, ...]) -> str:
    """Apply every fix; each must match exactly once so a changed seed fails loudly."""
    for fix in fixes:
        matches = list(re.finditer(fix.pattern, text, flags=re.S))
        if len(matches) != 1:
            raise ValueError(f"fix matched {len(matches)} times: {fix.why}")
        m = matches[0]
        text = text[: m.start()] + fix.new + text[m.end() :]
    return text
