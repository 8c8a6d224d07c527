"""Prose: what a document says in sentences. Document kind, whose document it is and its dateline,
narrative KPIs, the business outlook (guidance), declared dividends and restatement reasons.
Reads the running text of the documents room, the tables room's period phrases, the statements
room's label catalog and the forms room's dividend form.
"""
