"""The pictures the pages draw as inline SVG, each from data a read prepared: the markup
is in the templates, every word escaped as any template's.

``{% chart chart %}``: a :class:`scorekeeper.table.chart_shapes.Chart` (``scorekeeper/chart.svg``).
``{% qr code %}``: a :class:`scorekeeper.reads.qr.QRDrawing` (``scorekeeper/qr.svg``).
"""

from django import template

from scorekeeper.reads.qr import QRDrawing
from scorekeeper.table.chart_shapes import Chart

register = template.Library()


@register.inclusion_tag("scorekeeper/chart.svg")
def chart(chart: Chart) -> dict:
    return {"chart": chart}


@register.inclusion_tag("scorekeeper/qr.svg")
def qr(code: QRDrawing) -> dict:
    return {"qr": code}
