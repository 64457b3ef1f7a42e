"""``{% pay_to payee cents currency %}``: a payment line's ways to pay (the EPC QR
code, "Copy IBAN", the payee's links), from the page's ``pay_details`` and
``remittance`` (see :mod:`scorekeeper.reads.pay_details`)."""

from django import template

from scorekeeper.reads.pay_details import pay_to as ways_to_pay

register = template.Library()


@register.inclusion_tag("scorekeeper/pay_to.html", takes_context=True)
def pay_to(context: template.Context, payee: object, cents: int, currency: str) -> dict:
    known = context.get("pay_details") or {}
    pay = ways_to_pay(known, payee, cents, currency, context.get("remittance", ""))
    # Each line's "Copy IBAN" needs an id of its own on the page.
    count = context.render_context.get("pay_to_count", 0) + 1
    context.render_context["pay_to_count"] = count
    return {"pay": pay, "cents": cents, "currency": currency, "copy_id": f"iban-{count}"}
