"""Forms: documents whose shape is a form, not a statement: the HKEx cash dividend announcement
form and SEC XBRL company facts. Imports only the documents room.
"""
