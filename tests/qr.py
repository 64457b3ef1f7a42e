"""Reading QR codes back, as a phone's camera would: zxing-cpp over pixels."""

import io
import re

import zxingcpp
from PIL import Image


def decode_png(png: bytes) -> list[str]:
    """The texts of every QR code in a PNG image (a screenshot, say)."""
    image = Image.open(io.BytesIO(png)).convert("L")
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    return [code.text for code in found]


# A terminal's QR code: each character two modules, top and bottom (True: a block).
_HALVES = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}
_ESCAPE = re.compile(r"\033\[([0-9;]*)m")


def decode_terminal(text: str) -> list[str]:
    """The texts of the QR code a terminal shows in ``text`` (a command's output), as a
    phone's camera held to the screen reads it.

    The code is the run of lines drawn only in ``▀ ▄ █`` and spaces (segno's
    ``terminal(compact=True)``, manage.py welcome), two rows of modules to a line, so
    a wider code of ``██`` per module reads too. Colours are left out, reverse video
    (``ESC[7m``) swaps block and space. The blocks are taken as the dark modules first
    (dark text on a light terminal, or welcome's black on white), then as the light
    ones (light text on a dark terminal, as segno draws it)."""
    lines = [_cells(line) for line in text.splitlines()]
    drawn = [i for i, line in enumerate(lines) if line.strip() and set(line) <= set(_HALVES)]
    if not drawn:
        return []
    # The longest run of such lines one after another: the code, not a stray block.
    runs: list[list[int]] = []
    for i in drawn:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    code = [lines[i].rstrip() for i in max(runs, key=len)]
    indent = min(len(line) - len(line.lstrip(" ")) for line in code)
    code = [line[indent:] for line in code]
    width = max(len(line) for line in code)
    blocks = []
    for line in code:
        pairs = [_HALVES[ch] for ch in line]
        blocks += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    for blocks_are_dark in (True, False):
        found = _read_modules(blocks, width, blocks_are_dark)
        if found:
            return found
    return []


def _cells(line: str) -> str:
    """``line`` without its colour escapes, reverse video drawn as it shows."""
    out, reverse, at = [], False, 0
    swap = str.maketrans({" ": "█", "█": " ", "▀": "▄", "▄": "▀"})
    for match in _ESCAPE.finditer(line):
        part = line[at : match.start()]
        out.append(part.translate(swap) if reverse else part)
        at = match.end()
        codes = iter(match[1].split(";"))
        for code in codes:
            if code in ("38", "48"):  # a colour of 256 (5;n) or of RGB (2;r;g;b)
                for _ in range(2 if next(codes, "") == "5" else 3):
                    next(codes, "")
            elif code in ("", "0", "27"):
                reverse = False
            elif code == "7":
                reverse = True
    part = line[at:]
    out.append(part.translate(swap) if reverse else part)
    return "".join(out)


def _read_modules(blocks: list[list[bool]], width: int, blocks_are_dark: bool) -> list[str]:
    """Each module a square of pixels, a light margin (the quiet zone) all round."""
    scale, margin = 6, 4
    rows = [[block == blocks_are_dark for block in row] for row in blocks]
    rows = [row + [False] * (width - len(row)) for row in rows]  # light to the right
    image = Image.new("L", (width + 2 * margin, len(rows) + 2 * margin), 255)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.putpixel((x + margin, y + margin), 0)
    image = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
    png = io.BytesIO()
    image.save(png, format="PNG")
    return decode_png(png.getvalue())
