"""The audit stage without SEC: an issuer it has nothing to ask about."""

from domain.records import Issuer
from tasks import audit


def test_an_issuer_without_a_cik_is_skipped_in_one_line():
    hk_only = Issuer(ticker="EBL", name="Ernest Borel", cik="", hkex_code="01856")
    done = audit.audit_issuer(None, None, None, hk_only)  # type: ignore[arg-type]
    assert done.line == "EBL: no SEC CIK, no audited figures asked; skipped"
    assert (done.facts, done.checks, done.alerts, done.failed) == (0, (), (), False)
