"""``{% pay_to payee cents currency side payer_name %}``: a payment line's ways to pay
(the EPC QR code, "Copy IBAN", the payee's links), from the page's ``pay_details`` and
``remittance`` (see :mod:`scorekeeper.reads.pay_details`).

``side`` is the reader's side of the line. A phone cannot scan its own screen, so the
payee's phone shows the QR code for the payer to scan (``"payee"``), and the payer's
phone gets "Copy IBAN" and the links (``"payer"``); without a side (what is still owed
across nights) the line shows all of them.
"""

from django import template

from scorekeeper.reads.pay_details import pay_to as ways_to_pay

register = template.Library()


@register.inclusion_tag("scorekeeper/pay_to.html", takes_context=True)
def pay_to(
    context: template.Context,
    payee: object,
    cents: int,
    currency: str,
    side: str = "",
    payer_name: str = "",
) -> dict:
    known = context.get("pay_details") or {}
    pay = ways_to_pay(known, payee, cents, currency, context.get("remittance", ""))
    # Each line's "Copy IBAN" needs an id of its own on the page.
    count = context.render_context.get("pay_to_count", 0) + 1
    context.render_context["pay_to_count"] = count
    return {
        "pay": pay,
        "cents": cents,
        "currency": currency,
        "copy_id": f"iban-{count}",
        "side": side,
        "payer_name": payer_name,
    }
