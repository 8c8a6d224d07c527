"""A real release as pdftotext -layout prints it: columns as runs of spaces, headers split.

The seed (real QFIN text) is drawn as the PDF the replay archive is built with
(scripts/layouts/render.py, the fixture generator's reportlab output), and that PDF's text is
taken in layout mode (pdfplumber's ``extract_text(layout=True)``, the text pdftotext -layout
gives: each glyph at its character column, pages parted by form feeds). Nothing is typed by
hand: the layout, wrapped labels and split headers are the renderer's.

    python scripts/laid_out_text.py tests/fixtures/seeds/sec_...txt tests/fixtures/laid_out/
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pdfplumber

sys.path.insert(0, str(Path(__file__).resolve().parent / "layouts"))

from render import render  # noqa: E402

# characters per point: wide enough that neighbouring figures keep a gap between them
X_DENSITY = 4.5


def laid_out(seed_text: str) -> str:
    """The seed's text as laid-out text of its PDF rendering."""
    _, content = render(seed_text, "pdf")
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        pages = [page.extract_text(layout=True, x_density=X_DENSITY) for page in pdf.pages]
    return "\f".join("\n".join(line.rstrip() for line in page.splitlines()) for page in pages)


def main(seed: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{seed.stem}.layout.txt"
    out.write_text(laid_out(seed.read_text(encoding="utf-8")) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    print(main(Path(sys.argv[1]), Path(sys.argv[2])))
