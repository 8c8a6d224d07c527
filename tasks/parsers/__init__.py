"""Pure parsers: bytes or text in, typed records out (no I/O, no network, no database)."""
