"""Where a figure was read: shared by every record that carries one."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a fact was read: enough for a person to find it again."""

    document: str  # file name (exhibit, PDF, text file)
    locator: str  # "table 4", "page 12, table 2", "paragraph 31"
    row_label: str
    column: str  # column header as printed, e.g. "Three months ended June 30, 2024 RMB"
    raw_text: str  # the cell or sentence as printed, e.g. "(366,065)"
