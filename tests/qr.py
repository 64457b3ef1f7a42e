"""Reading QR codes back, as a phone's camera would: zxing-cpp over pixels."""

import io

import zxingcpp
from PIL import Image


def decode_png(png: bytes) -> list[str]:
    """The texts of every QR code in a PNG image (a screenshot, say)."""
    image = Image.open(io.BytesIO(png)).convert("L")
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    return [code.text for code in found]
