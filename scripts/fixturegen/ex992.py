"""The EX-99.2 (US GAAP to IFRS reconciliation) tables of the Q2 2024 6-K, repaired.

Every figure is the seed's. Corrections, each checked by the row identity
U.S. GAAP + adjustments = IFRSs and by the column totals:
- header rows garbled ("(Iı n thousands of Re enminbi", "KMD KWD", "IIEDC d", "1001 51, 2025",
  "Condensed Consolidated Belongs Short") rebuilt as one header band: IFRSs adjustments /
  column titles / "(In thousands of Renminbi ("RMB"))" / (Note i)-(Note iv) / RMB.
- nil cells printed as "_", "-" or left blank are "—" (the row identity holds with zero).
- Dec 31, 2023: Loans receivable, net-noncurrent "(1,037)" under financial guarantee is a ghost:
  2,898,005+148,675-1,286=3,045,394 and the column total (596,330)+(1,057)+(135,172)=(732,559).
- Dec 31, 2023: Deferred tax assets "(1,200)" under effective interest is a ghost:
  1,067,738+69,350-135,172=1,001,916 and the column total is (1,286) = the loans row alone.
- Dec 31, 2023: "TOTAL OFFICE POPULATION OF THE" is a garbled ghost row: dropped.
- Jun 30, 2024: Amounts due from related parties (noncurrent) "(202,5/1)": 396 = 396, so nil.
- Jun 30, 2024: Contract liabilities values sat on the "Current liabilities:" row and the row
  itself had ghosts "200,202 000,202"; 380,232-2,467,554=(2,087,322) = the column total.
- Jun 30, 2024: the row "(000, 15) (0,05.) (=,007,0==) 11,101,500" is a ghost: dropped.
- "LIABILITIES AND EQUITY LIABILITIES" is two captions merged: split.
- the asset/liability table and the equity table of each date (a page break in the source) are
  one table here; the six months 2023 table gets the title its 2024 twin has.
"""

from __future__ import annotations

N = "—"

HEAD = (
    "\t\tIFRSs adjustments{4}\t\t\t\t\n"
    "{label}\tAmounts as reported under U.S. GAAP\tExpected credit losses, net of tax\t"
    "Effective interest rate on loans receivable, net of tax\tShare-based compensation\t"
    "Financial guarantee, net of tax\tAmounts as reported under IFRSs\n"
    '\t(In thousands of Renminbi ("RMB")){6}\t\t\t\t\t\n'
    "\t\t(Note i)\t(Note ii)\t(Note iii)\t(Note iv)\t\n"
    "\tRMB\tRMB\tRMB\tRMB\tRMB\tRMB\n"
)
OPS = "Condensed Consolidated Statement of Operations"
BS = "Condensed Consolidated Balance Sheet"


def _rows(spec: str) -> str:
    """Rows written with '|' between cells and '~' for nil, as tab-separated lines."""
    out = []
    for line in spec.strip().splitlines():
        cells = [c.strip() for c in line.split("|")]
        cells = [N if c == "~" else c for c in cells]
        cells += [""] * (7 - len(cells))
        out.append("\t".join(cells))
    return "\n".join(out) + "\n"


OPS_2023 = """
Revenue, net of value-added tax and related
surcharges:
Credit driven services|5,419,328|~|(253,007)|~|~|5,166,321
Financing income|2,254,620|~|(253,007)|~|~|2,001,613
Total net revenue|7,513,498|~|(253,007)|~|~|7,260,491
Operating costs and expenses:
Facilitation, origination and servicing|1,288,330|~|~|(14,561)|~|1,273,769
Sales and marketing|858,663|~|~|(2,114)|~|856,549
General and administrative|217,646|~|~|(32,662)|~|184,984
Provision for loans receivable|1,002,170|(116,729)|~|~|~|885,441
Provision for financial assets receivable|151,017|~|~|~|159,778|310,795
Provision for contingent liabilities|1,437,924|87,062|~|~|~|1,524,986
Total operating costs and expenses|5,324,968|(29,667)|~|(49,337)|159,778|5,405,742
Income from operations|2,188,530|29,667|(253,007)|49,337|(159,778)|1,854,749
Income before income tax expense|2,468,424|29,667|(253,007)|49,337|(159,778)|2,134,643
Income tax expense|(445,225)|(4,450)|37,952|~|23,967|(387,756)
Net income|2,023,199|25,217|(215,055)|49,337|(135,811)|1,746,887
Net income attributable to ordinary shareholders
of the Company|2,031,549|25,217|(215,055)|49,337|(135,811)|1,755,237
"""

OPS_2024 = """
Revenue, net of value-added tax and related
surcharges:
Credit driven services|5,928,487|~|(50,622)|~|~|5,877,865
Financing income|3,225,096|~|(50,622)|~|~|3,174,474
Total net revenue|8,313,246|~|(50,622)|~|~|8,262,624
Operating costs and expenses:
Facilitation, origination and servicing|1,458,186|~|~|(8,190)|~|1,449,996
Sales and marketing|782,005|~|~|(1,368)|~|780,637
General and administrative|201,469|~|~|(2,413)|~|199,056
Provision for loans receivable|1,697,429|22,939|~|~|~|1,720,368
Provision for financial assets receivable|169,169|~|~|~|86,950|256,119
Provision for contingent liabilities|103,397|467,263|~|~|~|570,660
Total operating costs and expenses|4,964,159|490,202|~|(11,971)|86,950|5,529,340
Income from operations|3,349,087|(490,202)|(50,622)|11,971|(86,950)|2,733,284
Income before income tax expense|3,602,772|(490,202)|(50,622)|11,971|(86,950)|2,986,969
Income tax expense|(1,066,120)|73,514|7,591|~|13,040|(971,975)
Net income|2,536,652|(416,688)|(43,031)|11,971|(73,910)|2,014,994
Net income attributable to ordinary shareholders
of the Company|2,544,815|(416,688)|(43,031)|11,971|(73,910)|2,023,157
"""

BS_2023 = """
ASSETS
Current assets:
Financial assets receivable, net|2,522,543|~|~|~|(2,515,354)|7,189
Amounts due from related parties|45,346|~|~|~|(8,942)|36,404
Loans receivable, net|24,604,487|~|(43,934)|~|~|24,560,553
Total current assets|39,796,028|~|(43,934)|~|(2,524,296)|37,227,798
Non-current assets:
Financial assets receivable, net-
noncurrent|596,330|~|~|~|(596,330)|~
Amounts due from related parties|4,240|~|~|~|(1,057)|3,183
Loans receivable, net-noncurrent|2,898,005|148,675|(1,286)|~|~|3,045,394
Deferred tax assets|1,067,738|69,350|~|~|(135,172)|1,001,916
Total non-current assets|6,022,544|218,025|(1,286)|~|(732,559)|5,506,724
TOTAL ASSETS|45,818,572|218,025|(45,220)|~|(3,256,855)|42,734,522
LIABILITIES AND EQUITY
LIABILITIES
Current liabilities:
Contract liability|~|~|~|~|388,181|388,181
Guarantee liabilities-stand ready|3,949,601|~|~|~|(3,949,601)|~
Guarantee liabilities-contingent|3,207,264|(803,012)|~|~|~|2,404,252
Other tax payable|163,252|~|(2,560)|~|~|160,692
Total current liabilities|19,899,619|(803,012)|(2,560)|~|(3,561,420)|15,532,627
Non-current liabilities:
Deferred tax liabilities|224,823|~|(7,655)|~|~|217,168
Total non-current liabilities|3,909,096|~|(7,655)|~|~|3,901,441
TOTAL LIABILITIES|23,808,715|(803,012)|(10,215)|~|(3,561,420)|19,434,068
SHAREHOLDERS' EQUITY
Additional paid-in capital|6,059,439|~|~|17,505|~|6,076,944
Retained earnings|16,297,316|1,021,037|(35,005)|(17,505)|304,565|17,570,408
TOTAL QIFU TECHNOLOGY INC. EQUITY|21,937,483|1,021,037|(35,005)|~|304,565|23,228,080
TOTAL EQUITY|22,009,857|1,021,037|(35,005)|~|304,565|23,300,454
TOTAL LIABILITIES AND EQUITY|45,818,572|218,025|(45,220)|~|(3,256,855)|42,734,522
"""

BS_2024 = """
ASSETS
Current assets:
Financial assets receivable, net|1,528,003|~|~|~|(1,499,657)|28,346
Amounts due from related parties|31,459|~|~|~|(2,308)|29,151
Loans receivable, net|26,722,713|~|(86,277)|~|~|26,636,436
Total current assets|41,415,757|~|(86,277)|~|(1,501,965)|39,827,515
Non-current assets:
Financial assets receivable, net-noncurrent|232,571|~|~|~|(232,571)|~
Amounts due from related parties|396|~|~|~|~|396
Loans receivable, net-noncurrent|2,859,871|125,736|(12,603)|~|~|2,973,004
Deferred tax assets|1,050,308|142,864|~|~|(122,131)|1,071,041
Total non-current assets|5,567,292|268,600|(12,603)|~|(354,702)|5,468,587
TOTAL ASSETS|46,983,049|268,600|(98,880)|~|(1,856,667)|45,296,102
LIABILITIES AND EQUITY
LIABILITIES
Current liabilities:
Contract liabilities|~|~|~|~|380,232|380,232
Guarantee liabilities-stand ready|2,467,554|~|~|~|(2,467,554)|~
Guarantee liabilities-contingent|1,887,777|(335,749)|~|~|~|1,552,028
Other tax payable|116,590|~|(5,597)|~|~|110,993
Total current liabilities|16,883,628|(335,749)|(5,597)|~|(2,087,322)|14,454,960
Non-current liabilities:
Deferred tax liabilities|453,808|~|(15,247)|~|~|438,561
Total non-current liabilities|7,466,442|~|(15,247)|~|~|7,451,195
TOTAL LIABILITIES|24,350,070|(335,749)|(20,844)|~|(2,087,322)|21,906,155
SHAREHOLDERS' EQUITY
Additional paid-in capital|5,475,034|~|~|5,534|~|5,480,568
Retained earnings|18,195,707|604,349|(78,036)|(5,534)|230,655|18,947,141
TOTAL QIFU TECHNOLOGY INC. EQUITY|22,568,768|604,349|(78,036)|~|230,655|23,325,736
TOTAL EQUITY|22,632,979|604,349|(78,036)|~|230,655|23,389,947
TOTAL LIABILITIES AND EQUITY|46,983,049|268,600|(98,880)|~|(1,856,667)|45,296,102
"""


def _table(title: str, label: str, body: str) -> str:
    return f"{title}\n\n{HEAD.replace('{label}', label)}{_rows(body)}\n"


EX992_TABLES = (
    _table("Six months ended June 30, 2023", OPS, OPS_2023)
    + _table("Six months ended June 30, 2024", OPS, OPS_2024)
    + _table("As of December 31, 2023", BS, BS_2023)
    + _table("As of June 30, 2024", BS, BS_2024)
)
