"""A watching run's summary is the sum of its ingest runs'."""

from tasks.runs.summary import RunSummary


def _part(doc: str, failure: str) -> RunSummary:
    part = RunSummary(found=1, new=1, data_docs="file:///site-" + doc)
    part.take_up([doc])
    part.ingested, part.ingested_ids, part.facts_loaded = 1, [doc], 10
    part.raised_ids, part.alerts_raised = [f"alert-{doc}"], 1
    part.delivered_by_channel = {"webhook": 1}
    part.held_for = {doc: "statement problems"}
    part.source_failures = [failure]
    return part


def test_counters_add_lines_said_again_are_kept_once_and_the_latest_site_wins():
    total = RunSummary()
    total.add_run(_part("sec:a", "hkex latest listing: 503"))
    total.add_run(_part("sec:b", "hkex latest listing: 503"))
    total.add_run(RunSummary())  # a reading with nothing new changes nothing
    assert (total.found, total.new, total.ingested, total.facts_loaded) == (2, 2, 2, 20)
    assert total.alerts_raised == len(total.raised_ids) == 2
    assert total.seen == {"sec:a", "sec:b"} and total.ingested_ids == ["sec:a", "sec:b"]
    assert total.delivered_by_channel == {"webhook": 2}
    assert total.held_for == {"sec:a": "statement problems", "sec:b": "statement problems"}
    assert total.source_failures == ["hkex latest listing: 503"]
    assert total.data_docs == "file:///site-sec:b"
    assert total.unchanged == 0 and not total.ok


def test_a_rerun_says_why_it_found_documents_it_does_not_ingest():
    again = RunSummary()
    again.take_up(["hkex:1", "hkex:2", "sec:3", "sec:4", "sec:5"])  # listed again, all stored
    first = again.render().splitlines()[0]
    assert first.startswith("nothing new to ingest: the 5 found are in the warehouse already")
    assert "lists the sources' last days again" in first
    # the walk of issue 35: a backfill's rerun said only the incremental reason
    assert "a backfill everything since its date" in first
    assert RunSummary().render().splitlines()[0] == "nothing new to ingest"  # nothing found
