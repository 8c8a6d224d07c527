"""Texts of the non-results documents (synthetic, modelled on QFIN's real filings)."""

from __future__ import annotations

COVER = """**UNITED STATES
SECURITIES AND EXCHANGE COMMISSION**
Washington, D.C. 20549

Form 6-K

**REPORT OF FOREIGN PRIVATE ISSUER PURSUANT TO RULE
13a-16 OR 15d-16 UNDER
THE SECURITIES EXCHANGE ACT OF 1934**

For the month of {month}

Commission File Number 001-38752

Qifu Technology, Inc.
(Translation of registrant's name into English)

**7/F Lujiazui Finance Plaza
No. 1217 Dongfang Road
Pudong New Area, Shanghai 200122
People's Republic of China**
(Address of principal executive office)

Indicate by check mark whether the registrant files or will file annual reports under cover \
of Form 20-F or Form 40-F. Form 20-F \u2612 Form 40-F \u2610

Exhibit Index

{lines}

SIGNATURES

Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly \
caused this report to be signed on its behalf by the undersigned, thereunto duly authorized.

Qifu Technology, Inc.

By: /s/ Alex Xu
Name: Alex Xu
Title: Director and Chief Financial Officer

Date: {signed}
"""


def cover_text(month: str, exhibits: list[str], signed: str) -> str:
    """A 6-K cover in the seeds' layout; the exhibit lines become the Exhibit Index."""
    lines = "\n\n".join(f"Exhibit {e}" for e in exhibits)
    return COVER.format(month=month, lines=lines, signed=signed)


MONTHLY_RETURN = """**Qifu Technology, Inc.**

**Monthly Return of Equity Issuer on Movements in Securities for the month ended \
August 31, 2024**

On September 2, 2024, Hong Kong Time, Qifu Technology, Inc. (the "Company") filed with The \
Stock Exchange of Hong Kong Limited its monthly return of equity issuer on movements in \
securities for the month ended August 31, 2024 (the "Monthly Return").

The Monthly Return sets out the movements in the Company's authorized share capital, issued \
shares and treasury shares during the month, including Class A ordinary shares repurchased \
under the Company's share repurchase plan and shares issued under its share incentive plans.

For the full text of the Monthly Return, please refer to the announcement published on the \
website of The Stock Exchange of Hong Kong Limited at www.hkexnews.hk.
"""

POLL_RESULTS = """**Qifu Technology, Inc.**

**ANNOUNCEMENT OF POLL RESULTS OF THE ANNUAL GENERAL MEETING HELD ON JUNE 28, 2024**

The board of directors of Qifu Technology, Inc. (the "Company") announces that at the annual \
general meeting of the Company held on June 28, 2024 (the "AGM"), all the proposed resolutions \
as set out in the notice of the AGM were duly passed by the shareholders of the Company by way \
of poll.

Computershare Hong Kong Investor Services Limited, the Company's Hong Kong share registrar, \
acted as the scrutineer for the vote-taking at the AGM.

All directors of the Company attended the AGM in person or by electronic means.
"""

HK_MONTHLY_RETURN = [
    "Monthly Return of Equity Issuer on Movements in Securities",
    "For the month ended: 28 February 2025",
    "To: Hong Kong Exchanges and Clearing Limited",
    "Name of Issuer: Qifu Technology, Inc.",
    "Date Submitted: 04 March 2025",
    "I. Movements in Authorised / Registered Share Capital: No changes during the month.",
    "II. Movements in Issued Shares and/or Treasury Shares: Class A ordinary shares were "
    "repurchased under the share repurchase plan announced on November 19, 2024.",
    "Submitted by: Alex Xu, Director and Chief Financial Officer",
]

HK_HEADLINES_REVISED = [
    "Qifu Technology, Inc.",
    "(Incorporated in the Cayman Islands with limited liability)",
    "(Stock Code: 3660)",
    "DATE OF BOARD MEETING",
    'The board of directors (the "Board") of Qifu Technology, Inc. announces that a meeting '
    "of the Board will be held on Sunday, March 16, 2025 (New York Time), for the purpose of, "
    "among other matters, approving the unaudited financial results of the Company for the "
    "fourth quarter and full year ended December 31, 2024 and considering the payment of a "
    "semi-annual dividend.",
    "This announcement replaces the announcement published on March 3, 2025, whose headline "
    "category has been revised.",
    "By order of the Board, Qifu Technology, Inc., Haisheng Wu, Chief Executive Officer",
]

HK_OVERSEAS_REGULATORY = [
    "Qifu Technology, Inc.",
    "(Incorporated in the Cayman Islands with limited liability)",
    "(Stock Code: 3660)",
    "OVERSEAS REGULATORY ANNOUNCEMENT",
    "This announcement is made pursuant to Rule 13.10B of the Rules Governing the Listing of "
    "Securities on The Stock Exchange of Hong Kong Limited.",
    "Please refer to the attached document which has been filed by Qifu Technology, Inc. with "
    "the U.S. Securities and Exchange Commission on Form 6-K on September 3, 2024.",
    "By order of the Board, Qifu Technology, Inc., Haisheng Wu, Chief Executive Officer",
]
