"""QR codes as the pages show them: what to draw, worked out on the server from segno's
matrix; the template ``scorekeeper/qr.svg`` (``{% qr %}``) writes the inline SVG."""

from dataclasses import dataclass

import segno

# segno's type stubs leave out this public helper of its own writers.
from segno.utils import matrix_to_lines  # type: ignore[attr-defined]


@dataclass(frozen=True)
class QRDrawing:
    """A QR code to draw dark on white whatever the theme (phone cameras read that
    best): ``modules`` across, its quiet zone included, each ``scale`` pixels, the dark
    ones as ``path`` (one horizontal stroke a module high for each run of them, as SVG
    path data), and named ``title``."""

    title: str
    modules: int
    scale: int
    path: str

    @property
    def size(self) -> int:
        """Its width and height in pixels."""
        return self.modules * self.scale


def qr_drawing(code: segno.QRCode, *, title: str, scale: int = 5, border: int = 2) -> QRDrawing:
    """``code`` with a quiet zone of ``border`` modules, to draw ``scale`` pixels a module.

    >>> drawing = qr_drawing(segno.make("OFC", error="m", micro=False), title="A code")
    >>> drawing.modules, drawing.size, drawing.path[:12]
    (25, 125, 'M2 2.5h7m2 0')
    """
    width, _ = code.symbol_size(scale=1, border=border)
    return QRDrawing(title=title, modules=int(width), scale=scale, path=_dark_runs(code, border))


def _dark_runs(code: segno.QRCode, border: int) -> str:
    """The dark modules' runs, row by row, each a stroke along the middle of its row,
    every move relative to where the last stroke ended (as segno writes them)."""
    parts = []
    here_x, here_y = 0.0, 0.0
    for index, ((x1, y), (x2, _)) in enumerate(matrix_to_lines(code.matrix, border, border + 0.5)):
        move = "m" if index else "M"
        dy = y - here_y
        parts.append(f"{move}{x1 - here_x:g} {dy:g}h{x2 - x1}")
        here_x, here_y = x2, y
    return "".join(parts)
