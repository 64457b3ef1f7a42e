"""QR codes as the pages show them: inline SVG drawn on the server."""

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_markup(code: segno.QRCode, *, title: str, scale: int = 5, border: int = 2) -> SafeString:
    """``code`` as inline SVG named ``title``, dark on white whatever the theme: phone
    cameras read that best."""
    svg = code.svg_inline(
        scale=scale, border=border, dark="#000", light="#fff", svgclass="qr", title=title
    )
    # segno escapes the title it writes, so the markup is safe to output as is.
    return mark_safe(svg)
