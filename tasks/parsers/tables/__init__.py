"""Tables: a RawTable read into a statement's tree. Its column headers (periods, currency, role of
each value column), its header/body segments and labels, what the table is (title, scale,
currency: table_setting) and which statement its title names (statement_titles). Imports only
the documents room.
"""
