"""Statements: the statement tree read into line items and facts, and proved. Every value cell as
printed (asreported), the shared standard mapping and an issuer's label catalog overlay
(standard, catalog, metric_mapping), the GAAP -> IFRS reconciliation, cross-checks, the best
reading of a text that reads more than one way, per-share notes, and the proof of every
published figure (proving). Imports only documents and tables.
"""
