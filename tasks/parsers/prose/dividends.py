"""Declared dividends -> Dividend records, from any results release or announcement, in
English or Chinese, and from the HKEx form (``dividendform``).

A declaration is a sentence that declares, recommends, approves, resolves or proposes a
dividend (宣派, 建議, 批准) and prints its amount per share or per ADS:
- "has approved a dividend of US$0.35 per Class A ordinary share, or US$0.70 per ADS for
  the second half of 2024" (a US-listed issuer's release);
- "The Board has recommended the payment of a final dividend of HK8 cents per share for
  FY2014 (2013: Nil per share)" (Hong Kong: cents of a dollar; the comparative in brackets
  is last year's, not this one);
- "declared a quarterly cash dividend of $0.35 per share";
- "董事會建議派付截至2014財政年度的末期股息每股8港仙".
A sentence saying none is declared ("does not recommend the payment of an interim
dividend") prints no amount, or is negated, and gives nothing. A total ("a final dividend
of approximately HK$27,795,000") is no amount per share.

Its period is the one it names ("for the six months ended 30 June 2024", "for the second
half of 2024", 截至…止年度), else the document's own period of its kind: "FY2014" or a
final dividend is the twelve months the statements report (ending in that year), an interim
dividend their six months, a quarterly one their three. Record and payment dates are read
from the text that follows ("holders of record ... as of the close of business on April 23,
2025", "whose names appear on the register of members on 18 June 2015", "expected to be
paid on 8 July 2015", 股息預期將於2015年7月8日派付); a Hong Kong book closure for the
dividend (its sentence or the next names the dividend) gives the record date, its last day.
One dividend printed twice (a highlight and its section) is one record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from decimal import Decimal

from domain.records import Dividend, Provenance
from tasks.parsers.documents import running_text
from tasks.parsers.forms.dividendform import TITLE, from_form
from tasks.parsers.tables.headers import dated, phrase_period

Period = tuple[date, date]

_SENTENCE_END = re.compile(r"(?<=[a-z0-9)%])\.\s+(?=[A-Z“(•])|。|\s•\s")
_DECLARES = re.compile(
    r"\b(?:declar(?:e|es|ed|ing)|recommend(?:s|ed|ing)?|approv(?:e|es|ed|ing)|resolved"
    r"|propos(?:e|es|ed))\b|建議|建议|宣派|宣佈|宣布|批准|議決|议决",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(?:not|no)\b|並無|并无|不(?:建議|建议|宣派|派)", re.IGNORECASE)
_DIVIDEND = re.compile(r"\bdividends?\b|股息", re.IGNORECASE)
_KIND = re.compile(r"\b(final|interim|quarterly|special)\b|(末期|中期|特別|特别)", re.IGNORECASE)
_KINDS = {"末期": "final", "中期": "interim", "特別": "special", "特别": "special"}
_MONTHS = {"final": 12, "interim": 6, "quarterly": 3}  # the statements' period of its kind
# last year's figure beside this year's: "(2013: Nil per share)", "（2013年：每股零港元）"
_COMPARATIVE = re.compile(r"[(（][^()（）]*?(?:19|20)\d\d[^()（）]*?[:：][^()（）]*[)）]")
_CURRENCIES = {"US": "USD", "USD": "USD", "$": "USD", "U.S.": "USD", "HK": "HKD", "HKD": "HKD"}
_CURRENCIES |= {"Hong Kong": "HKD", "RMB": "CNY", "CNY": "CNY", "Renminbi": "CNY"}
_CURRENCIES |= {
    "人民幣": "CNY",
    "人民币": "CNY",
    "港幣": "HKD",
    "港币": "HKD",
    "港": "HKD",
    "美": "USD",
}
# an amount as printed: "US$0.35", "HKD4.50", "RMB0.20", "HK8 cents", "8 HK cents", "每股8港仙",
# "每股人民幣0.10元"; "cents" / 仙 / 分 are hundredths
_AMOUNT = re.compile(
    r"(?P<n_>\d+(?:\.\d+)?) (?P<cur_>HK|US|U\.S\.|RMB|Renminbi|Hong Kong) cents?"
    r"|(?:(?P<cur>US|HK|RMB|USD|HKD|CNY)?(?P<dollar>\$)?(?<=[A-Z$]) ?)?"  # a space after one
    r"(?P<n>\d+(?:\.\d+)?)(?![\d,])"
    r"(?P<cents> cents?)?"
    r"|每股(?:股份)? ?(?P<zcur>人民[幣币]|港[幣币])? ?(?P<zn>\d+(?:\.\d+)?) ?"
    r"(?P<zunit>(?:港|美)?(?:仙|元)|分)?"
)
_PER = re.compile(
    r"\s*per (?:(?:Class [A-Z] )?(?:ordinary |common )?share"
    r"|(?P<ads>ADS|American depositary share))",
    re.IGNORECASE,
)
_HALF = re.compile(r"\b(first|second) half of ((?:19|20)\d\d)\b", re.IGNORECASE)
_QUARTER = re.compile(r"\b(first|second|third|fourth) quarter of ((?:19|20)\d\d)\b", re.I)
_ENDED = re.compile(
    r"\b(?:(?:fiscal |financial )?year|(?:three|six|nine|twelve) months|\d{2} weeks) ended"
    r" (?:on )?[^.;()]{4,30}?(?:19|20)\d\d\b",
    re.IGNORECASE,
)
_FISCAL_YEAR = re.compile(
    r"\bFY ?((?:19|20)\d\d)\b|((?:19|20)\d\d) ?(?:財政|财政)年度|fiscal ((?:19|20)\d\d)"
)
_WEEKDAY = r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,? )?"
_ZH_DATE = re.compile(r"((?:19|20)\d\d) ?年 ?(\d{1,2}) ?月 ?(\d{1,2}) ?日")
_DATE = (
    rf"{_WEEKDAY}((?:{running_text.DATE_RE.pattern})|(?:{running_text.DAY_FIRST_RE.pattern})"
    rf"|(?:{_ZH_DATE.pattern}))"
)
# a table's text run into the prose ("DIVIDEND 2014 2013 HK$'000 ... HK8 cents per share
# 27,795"): its lines are no sentence, its periods no dividend's
_TABLE_TEXT = re.compile(r"['’]000\b|千港元|人民幣千元|千元")
_RECORD = (
    re.compile(
        rf"holders of record\b.{{0,160}}?\b(?:on|as of|at) (?:the close of business on )?{_DATE}"
    ),
    re.compile(rf"names appear on the register of members\b.{{0,80}}?\bon {_DATE}"),
    re.compile(rf"record date\b.{{0,100}}?\b(?:is|will be|on) {_DATE}", re.IGNORECASE),
    re.compile(
        rf"(?:記錄日期|记录日期|登記日期|登记日期)[^。]{{0,20}}?(?:為|为|是|於|于) ?{_DATE}"
    ),
)
_PAYMENT = (
    re.compile(rf"payment date is expected to be (?:on )?{_DATE}"),
    re.compile(rf"(?:(?:be|been|is|was|were) paid|payable)\b.{{0,60}}?\bon (?:or about )?{_DATE}"),
    re.compile(
        rf"(?:將|将)?(?:於|于) ?{_DATE} ?(?:[（(]星期.[）)])? ?(?:或前後)?(?:派付|派發|派发|支付)"
    ),
)
# Hong Kong's book closure: the register of members closed (on one day, or from one to
# another) for the dividend's entitlement; its last day is the record date
_CLOSED = (
    re.compile(
        rf"register of members\b[^.]{{0,80}}?\bclosed (?:on |from )?(?P<first>{_DATE})"
        rf"(?:[^.]{{0,20}}?\b(?:to|and|until|till) (?P<last>{_DATE}))?",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?:於|于|自) ?(?P<first>{_DATE})(?:[（(]星期.[)）])?"
        rf"(?:(?:至|及|到|和) ?(?P<last>{_DATE})(?:[（(]星期.[)）])?)?"
        r"[^。，]{0,16}?(?:暫停辦理|暂停办理)"
    ),
)
_ADS_PAYMENT = re.compile(rf"(?:and|or) (?:around|on) {_DATE} for holders of ADSs")
_WINDOW = 3000  # characters after a declaration its dates are looked for in (up to the next)
_REACH = 60  # characters before the declaring verb that are its clause ("The Board has not")


def extract_dividends(
    text: str, document: str, periods: Iterable[Period] = ()
) -> tuple[Dividend, ...]:
    """Every dividend declared in a document; ``periods``: the periods its statements report
    (a dividend that names none is of the document's own period of its kind)."""
    if TITLE in text:
        form = from_form(text, document)
        return (form,) if form else ()
    cleaned = running_text.join_cjk(running_text.clean(text))
    reported = sorted(set(periods), key=lambda p: p[1])
    mentions = [
        (start, declared)
        for start, sentence in _sentences(cleaned)
        for declared in [_declared(sentence, reported, document)]
        if declared
    ]
    found: list[Dividend] = []
    ends = [start for start, _ in mentions[1:]] + [len(cleaned)] * bool(mentions)
    for (start, declared), end in zip(mentions, ends, strict=True):
        # a date belongs to the mention it follows, not to one before that
        window = cleaned[start : min(end, start + _WINDOW)]
        found += [_with_dates(d, window) for d in declared]
    return _merged(found)


def _sentences(text: str) -> Iterable[tuple[int, str]]:
    start = 0
    for end in _SENTENCE_END.finditer(text):
        yield start, text[start : end.start() + 1]
        start = end.end()
    yield start, text[start:]


def _declared(sentence: str, periods: list[Period], document: str) -> list[Dividend]:
    """The dividends a sentence declares (a regular and a special one may share it)."""
    if not _DIVIDEND.search(sentence) or len(sentence) > 1200 or _TABLE_TEXT.search(sentence):
        return []
    verb = _DECLARES.search(sentence)
    if verb is None:
        return []
    cut = sentence.find(" ", verb.start() - _REACH) + 1 if verb.start() > _REACH else 0
    if _NEGATED.search(sentence[cut : verb.end()]):
        return []  # "has not recommended to declare", "do not recommend the payment of"
    clause = _COMPARATIVE.sub("", sentence[cut:])
    amounts = _amounts(clause)
    if not amounts:  # declared after its amount: "a final dividend of HK$0.10 ... was declared"
        cut, clause = 0, _COMPARATIVE.sub("", sentence)
        amounts = _amounts(clause)
    start, end = _period(clause, periods)
    raw = sentence[cut : cut + 400]
    return [
        Dividend(
            currency=currency,
            per_share=per_share,
            per_ads=per_ads,
            period_start=start,
            period_end=end,
            record_date=None,
            ex_date=None,  # a release gives none; the HKEx form does
            payment_date=None,
            provenance=Provenance(document, "narrative: dividend", "dividend", "", raw),
        )
        for currency, per_share, per_ads in _paired(amounts)
    ]


def _paired(
    amounts: list[tuple[str, Decimal, bool]],
) -> list[tuple[str, Decimal | None, Decimal | None]]:
    """(currency, per share, per ADS) of each dividend: an amount per share, and the amount
    per ADS printed after it ("US$0.125 per ordinary share, or US$1.00 per ADS")."""
    paired: list[tuple[str, Decimal | None, Decimal | None]] = []
    for currency, amount, ads in amounts:
        if ads and paired and paired[-1][2] is None and paired[-1][1] is not None:
            paired[-1] = (paired[-1][0], paired[-1][1], amount)
        else:
            paired.append((currency, None, amount) if ads else (currency, amount, None))
    return paired


def _amounts(text: str) -> list[tuple[str, Decimal, bool]]:
    """(currency, amount per unit, per ADS) of each amount printed per share or per ADS."""
    found = []
    for match in _AMOUNT.finditer(text):
        read = _zh_amount(match) if match["zn"] else _amount(match)
        if read is None:
            continue
        per = _PER.match(text, match.end())
        if match["zn"] or per is not None:  # else a total ("HK$27,795,000"), not per share
            found.append((*read, per is not None and per["ads"] is not None))
    return found


def _amount(match: re.Match[str]) -> tuple[str, Decimal] | None:
    cents = bool(match["cents"]) or bool(match["cur_"])
    code = match["cur"] or match["cur_"] or (match["dollar"] and "$")
    if code is None or (code in ("HK", "US") and not (match["dollar"] or cents)):
        return None  # a bare number, or "HK8" without its cents
    amount = Decimal(match["n"] or match["n_"])
    return _CURRENCIES[code], amount.scaleb(-2) if cents else amount


def _zh_amount(match: re.Match[str]) -> tuple[str, Decimal] | None:
    unit = match["zunit"] or ""
    code = match["zcur"] or unit[:1]
    if code not in _CURRENCIES or not unit:
        return None
    amount = Decimal(match["zn"])
    return _CURRENCIES[code], amount.scaleb(-2) if unit[-1] in "仙分" else amount


def _period(text: str, periods: list[Period]) -> tuple[date | None, date | None]:
    """The period a declaration names, else the document's own of its kind."""
    half = _HALF.search(text)
    if half:
        return running_text.half(int(half[2]), 1 if half[1].lower() == "first" else 2)
    quarter = _QUARTER.search(text)
    if quarter:
        return running_text.quarter(int(quarter[2]), running_text.ordinal(quarter[1]))
    ended = _ENDED.search(dated(text))
    if ended:
        start, end = phrase_period(ended[0])
        if start is not None:
            return start, end
    fiscal = _FISCAL_YEAR.search(text)
    kind = _KIND.search(text)
    named = (kind[1] or "").lower() or _KINDS.get(kind[2] or "", "") if kind else ""
    months = 12 if fiscal else _MONTHS.get(named, 0)
    year = int(next(g for g in fiscal.groups() if g)) if fiscal else None
    fitting = [p for p in periods if _months(p) == months and (year is None or p[1].year == year)]
    return fitting[-1] if fitting else (None, None)


def _months(period: Period) -> int:
    # by days, not calendar months: a 13-week quarter (Aug 4 - Nov 2) is three months long
    start, end = period
    return round(((end - start).days + 1) / 30.44)


def _with_dates(dividend: Dividend, window: str) -> Dividend:
    """The record and payment dates the text after a declaration gives."""
    record = next((m for p in _RECORD for m in [p.search(window)] if m), None)
    payment = next((m for p in _PAYMENT for m in [p.search(window)] if m), None)
    ads = _ADS_PAYMENT.search(window[payment.end() :]) if payment else None
    return replace(
        dividend,
        record_date=_date(record) if record else _book_closed(window),
        payment_date=_date(payment) if payment else None,
        ads_payment_date=_date(ads) if ads and dividend.per_ads is not None else None,
    )


def _book_closed(window: str) -> date | None:
    """The last day the register is closed for the dividend: the closure's sentence or the
    one after it names the dividend ("In order to determine the entitlement to the proposed
    final dividend, ..."); a closure for the meeting's vote is not the dividend's."""
    sentences = [sentence for _, sentence in _sentences(window)]
    for at, sentence in enumerate(sentences):
        closed = next((m for p in _CLOSED for m in [p.search(sentence)] if m), None)
        if closed and _DIVIDEND.search(" ".join(sentences[at : at + 2])):
            return _parsed(closed["last"] or closed["first"])
    return None


def _date(match: re.Match[str]) -> date:
    return _parsed(match[1])


def _parsed(printed: str) -> date:
    zh = _ZH_DATE.search(printed)
    if zh:
        return date(int(zh[1]), int(zh[2]), int(zh[3]))
    found = running_text.DATE_RE.search(printed) or running_text.DAY_FIRST_RE.search(printed)
    assert found is not None
    return running_text.parse_date(found)


def _merged(found: list[Dividend]) -> tuple[Dividend, ...]:
    """One record per dividend (amounts and period), the dates any mention of it gives."""
    merged: dict[tuple[object, ...], Dividend] = {}
    for d in found:
        key = (d.currency, d.per_share, d.per_ads, d.period_start, d.period_end)
        first = merged.setdefault(key, d)
        merged[key] = replace(
            first,
            record_date=first.record_date or d.record_date,
            payment_date=first.payment_date or d.payment_date,
            ads_payment_date=first.ads_payment_date or d.ads_payment_date,
        )
    return tuple(merged.values())
