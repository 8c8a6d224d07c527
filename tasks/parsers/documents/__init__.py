"""Documents: a PDF, an HTML exhibit or a text, read into tables of positioned cells (the grid).
Format readers (pdf, html, plain_text), the PDF page text sources (pdfminer words, PDFium text,
content-stream literals), the one table model of printed lines (layout, flowed text put back in
columns), value columns found by geometry or by count, the RawTable record they all produce,
exact cell numbers, Chinese header words, and the document's running text cleaned for reading
sentences. Imports nothing from the other parser rooms, but the tables room's header lines and
statement titles (layout, html) and the statements room's best reading of flowed text
(plain_text).
"""
