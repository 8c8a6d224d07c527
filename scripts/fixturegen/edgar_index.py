# ruff: noqa: E501  (verbatim SEC page markup)
"""The www.sec.gov ``<accession>-index.htm`` page, shaped like a recorded real one."""

from __future__ import annotations

import html

from fixturegen.edgar_meta import CIK, NAME, Filing, _doc_row

HEAD = """<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
<meta http-equiv="Last-Modified" content="{modified}" />
<title>EDGAR Filing Documents for {acc}</title>
<link  rel="stylesheet" href="/edgar/search/global/css/bootstrap/bootstrap.min.css" type="text/css" />
<link rel="stylesheet" type="text/css" href="/include/interactive2.css" />
</head>
<body style="margin: 0; font-size: 16px; ">
<div  id="header" style="text-align: center;">
   <div style="position: absolute;width: 100%;"> <h1 style="position: relative;top: -60px;">Filing Detail</h1></div>
</div>
<div id="breadCrumbs">
   <ul>
      <li><a href="/index.htm">SEC Home</a> &#187;</li>
      <li><a href="/edgar/searchedgar/companysearch.html">Company Search</a> &#187;</li>
      <li class="last">Current Page</li>
   </ul>
</div>

<div id="contentDiv">
<!-- START FILING DIV -->
<div class="formDiv">
   <div id="formHeader">
      <div id="formName">
         <strong>Form {form}</strong> - {form_description}: 
      </div>
      <div id="secNum">
         <strong><acronym title="Securities and Exchange Commission">SEC</acronym> Accession <acronym title="Number">No.</acronym></strong> {acc}
      </div>
   </div>
   <div class="formContent">
   
      <div class="formGrouping">
         <div class="infoHead">Filing Date</div>
         <div class="info">{filed}</div>
         <div class="infoHead">Accepted</div>
         <div class="info">{accepted}</div>
         <div class="infoHead">Documents</div>
         <div class="info">{ndocs}</div>
      </div>
      <div class="formGrouping">
         <div class="infoHead">Period of Report</div>
         <div class="info">{period}</div>
      </div>
      <div style="clear:both"></div>
<!-- END FILING DIV -->
  </div>
    </div>
<!-- START DOCUMENT DIV -->
<div class="formDiv">
   <div style="padding: 0px 0px 4px 0px; font-size: 12px; margin: 0px 2px 0px 5px; width: 100%; overflow:hidden">
      <p>Document Format Files</p>
      <table class="tableFile" summary="Document Format Files">
         <tr>
            <th scope="col" style="width: 5%;"><acronym title="Sequence Number">Seq</acronym></th>
            <th scope="col" style="width: 40%;">Description</th>
            <th scope="col" style="width: 20%;">Document</th>
            <th scope="col" style="width: 10%;">Type</th>
            <th scope="col">Size</th>
         </tr>
"""

TAIL = """         <tr{even}>
            <td scope="row">&nbsp;</td>
            <td scope="row">Complete submission text file</td>
            <td scope="row"><a href="/Archives/edgar/data/{cik}/{folder}/{acc}.txt">{acc}.txt</a></td>
            <td scope="row">&nbsp;</td>
            <td scope="row">{total}</td>
         </tr>
      </table>	
   </div>
</div>
<!-- END DOCUMENT DIV -->
<!-- START FILER DIV -->
<div class="filerDiv">
   <div class="mailer">Mailing Address
      <span class="mailerAddress">7/F LUJIAZUI FINANCE PLAZA</span>
      <span class="mailerAddress">NO. 1217 DONGFANG ROAD</span>
      <span class="mailerAddress">
SHANGHAI       <span class="mailerAddress">F4</span>
200122      </span>
   </div>
   <div class="mailer">Business Address
      <span class="mailerAddress">7/F LUJIAZUI FINANCE PLAZA</span>
      <span class="mailerAddress">NO. 1217 DONGFANG ROAD</span>
      <span class="mailerAddress">
SHANGHAI       <span class="mailerAddress">F4</span>
200122      </span>
      <span class="mailerAddress">86 21 5835 7668</span>
   </div>
<div class="companyInfo">
  <span class="companyName">{name} (Filer)
 <acronym title="Central Index Key">CIK</acronym>: <a href="/cgi-bin/browse-edgar?CIK={cik10}&amp;action=getcompany">{cik10} (see all company filings)</a></span>
<p class="identInfo"><acronym title="Internal Revenue Service Number">EIN.</acronym>: <strong>000000000</strong> | State of Incorp.: <strong>E9</strong> | Fiscal Year End: <strong>1231</strong><br />Type: <strong>{form}</strong> | Act: <strong>{act}</strong> | File No.: <a href="/cgi-bin/browse-edgar?filenum={fileno}&amp;action=getcompany"><strong>{fileno}</strong></a> | Film No.: <strong>{film}</strong><br /><acronym title="Standard Industrial Code">SIC</acronym>: <b><a href="/cgi-bin/browse-edgar?action=getcompany&amp;SIC=7389&amp;owner=include">7389</a></b> Services-Business Services, NEC<br />(CF Office: 08 Industrial Applications and Services)</p>
</div>
<div class="clear"></div>
</div>
<!-- END FILER DIV -->
</div>
</body>
</html>
"""


def _modified(accepted: str) -> str:
    """A fixed HTTP-date for the Last-Modified meta (acceptance time, labelled GMT as SEC does)."""
    from datetime import datetime

    moment = datetime.strptime(accepted[:19], "%Y-%m-%dT%H:%M:%S")
    return moment.strftime("%a, %d %b %Y %H:%M:%S GMT")


# What EDGAR's index page says each form is
_DESCRIPTIONS = {
    "6-K": "Report of foreign issuer [Rules 13a-16 and 15d-16]",
    "8-K": "Current report",
}


def index_page(filing: Filing, sizes: dict[str, int], cik: str = CIK, name: str = NAME) -> bytes:
    """The -index.htm of one filing (QFIN's unless ``cik`` and ``name`` say otherwise);
    ``sizes`` maps file name to byte length."""
    rows = "".join(
        _doc_row(i, filing, f, sizes[f.name], cik) for i, f in enumerate(filing.files, 1)
    )
    total = sum(sizes[f.name] for f in filing.files) + 3_000
    head = HEAD.format(
        modified=_modified(filing.accepted),
        acc=filing.accession,
        form=filing.form,
        form_description=_DESCRIPTIONS.get(filing.form, _DESCRIPTIONS["6-K"]),
        filed=filing.filing_date,
        accepted=filing.accepted[:19].replace("T", " "),
        ndocs=len(filing.files),
        period=filing.report_date,
    )
    even = ' class="evenRow"' if (len(filing.files) + 1) % 2 == 0 else ""
    tail = TAIL.format(
        even=even,
        cik=cik,
        folder=filing.folder,
        acc=filing.accession,
        total=total,
        name=html.escape(name),
        cik10=cik.zfill(10),
        form=filing.form,
        act=filing.act,
        fileno=filing.file_number,
        film=filing.film,
    )
    return (head + rows + tail).encode("ascii")


def submission_size(filing: Filing, sizes: dict[str, int]) -> int:
    """The size SEC lists for the whole submission (documents plus SGML headers)."""
    return sum(sizes[f.name] for f in filing.files) + 3_000
