from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict:
    return {"open_signup": settings.OFCBOARD_OPEN_SIGNUP}
