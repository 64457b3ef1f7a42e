from django.urls import URLPattern, path, register_converter, reverse

from scorekeeper.converters import IdConverter
from scorekeeper.views import (
    accounts,
    boards,
    call_off,
    changes,
    groups,
    health,
    imports,
    nights,
    offline,
    results,
    rounds,
    rules,
    same_table,
    screens,
    seasons,
    seats,
    sign_ins,
)

register_converter(IdConverter, "id")

# The pages whose posts check or set a password: logging in, the open sign-up, and an
# invitation link's sign-up and login. Hashing one takes half a second of a core on
# purpose, so the server runs those posts (ofcboard/lanes.py) in a lane of their own
# (:func:`password_paths`).
LOGIN, SIGNUP, JOIN = "login/", "signup/", "join/"
# A one-time sign-in code's page: no password, but a secret in its address (kept out
# of the logs with the join page's, scorekeeper/site/log_secrets.py).
SIGN_IN = "signin/"
PASSWORD_ROUTES = (LOGIN, SIGNUP, JOIN)

# The pages of one group and of one night: (route below its address, view, name).
GROUP_PAGES = [
    ("", groups.group_detail, "group_detail"),
    ("live/", groups.group_live, "group_live"),
    ("new-link/", groups.group_new_link, "group_new_link"),
    ("leave/", groups.group_leave, "group_leave"),
    ("members/<int:user_id>/remove/", groups.group_remove_member, "group_remove_member"),
    ("house-rules/", groups.group_house_rules, "group_house_rules"),
    ("currency/", groups.group_currency, "group_currency"),
    ("nights/new/", nights.night_start, "night_start"),
    ("nights/same-table/", same_table.night_same_table, "night_same_table"),
    ("table/", results.group_table_view, "group_table"),
    ("seasons/", seasons.group_seasons, "group_seasons"),
    ("players/", results.players_view, "players"),
    ("players/<id:user_id>/", results.player_history_view, "player_history"),
    ("export.<str:fmt>", results.group_export, "group_export"),
    ("import/", imports.group_import, "group_import"),
    ("import/take-back/", imports.import_take_back, "import_take_back"),
    ("owed/", results.group_owed, "group_owed"),
    ("owed/pay/", results.owed_pay, "owed_pay"),
    ("owed/paid/<id:payment_id>/undo/", results.owed_undo, "owed_undo"),
    ("members/<id:user_id>/sign-in/", sign_ins.member_sign_in_code, "member_sign_in_code"),
    ("changes/", changes.group_changes_view, "group_changes"),
]

NIGHT_PAGES = [
    ("", nights.night_detail, "night_detail"),
    ("live/", nights.night_live, "night_live"),
    ("entry/", nights.entry_save, "entry_save"),
    ("end/", nights.night_end, "night_end"),
    ("call-off/", call_off.night_call_off, "night_call_off"),
    ("log/", changes.night_log, "night_log"),
    ("rules/", rules.night_rules, "night_rules"),
    ("rounds/", rounds.night_rounds, "night_rounds"),
    ("rounds/<id:number>/edit/", rounds.round_edit, "round_edit"),
    ("rounds/<id:number>/cards/<id:seat_id>/", boards.board_entry, "board_entry"),
    ("rounds/<id:number>/cards/<id:seat_id>/live/", boards.board_live, "board_live"),
    ("undo/", rounds.round_undo, "round_undo"),
    ("seats/add/", seats.seat_add, "seat_add"),
    ("seats/deal-me-in/", seats.seat_deal_me_in, "seat_deal_me_in"),
    ("seats/<id:seat_id>/leave/", seats.seat_leave, "seat_leave"),
    ("settle/", results.night_settle, "night_settle"),
    ("settle/live/", results.night_settle_live, "night_settle_live"),
    ("payments/", results.payment_mark, "payment_mark"),
    ("payments/<id:payment_id>/undo/", results.payment_undo, "payment_undo"),
    ("settle/owed/", results.night_owed_pay, "night_owed_pay"),
    ("settle/everything/", results.settle_everything, "settle_everything"),
    ("export.<str:fmt>", results.night_export, "night_export"),
    ("screen/", screens.night_screen, "night_screen"),
    ("screen/live/", screens.night_screen_live, "night_screen_live"),
    ("screen/link/", screens.screen_link, "screen_link"),
]

urlpatterns = [
    path("", groups.home, name="home"),
    path(LOGIN, accounts.LoginView.as_view(), name="login"),
    path("logout/", accounts.LogoutView.as_view(), name="logout"),
    path(SIGNUP, accounts.signup, name="signup"),
    path("language/", accounts.language, name="language"),
    path("account/", accounts.account, name="account"),
    path("account/password/", sign_ins.account_password, name="account_password"),
    path("account/sign-in-code/", sign_ins.own_sign_in_code, name="own_sign_in_code"),
    path("account/phones/<id:phone_id>/sign-out/", sign_ins.phone_sign_out, name="phone_sign_out"),
    path("account/notice/", sign_ins.notice_seen, name="notice_seen"),
    path("code/", sign_ins.enter_code, name="enter_code"),
    path(SIGN_IN + "<str:code>/", sign_ins.sign_in, name="sign_in"),
    path("rules/", rules.rules, name="rules"),
    path("service-worker.js", offline.service_worker, name="service_worker"),
    path("manifest/<str:language>.webmanifest", offline.manifest, name="manifest"),
    path("health/", health.health, name="health"),
    path(JOIN + "<str:token>/", groups.join, name="join"),
    path("screen/<str:token>/", screens.shared_screen, name="shared_screen"),
    path("screen/<str:token>/live/", screens.shared_screen_live, name="shared_screen_live"),
    path("groups/new/", groups.group_create, name="group_create"),
]


def _under(prefix: str, pages: list) -> list[URLPattern]:
    return [path(prefix + route, view, name=name) for route, view, name in pages]


urlpatterns += _under("groups/<id:group_id>/", GROUP_PAGES)
urlpatterns += _under("nights/<id:night_id>/", NIGHT_PAGES)


def password_paths() -> tuple[str, ...]:
    """Where the addresses of the pages that check or set a password start
    (``"/login/"``, ``"/signup/"``, ``"/join/"``), wherever the app's pages are."""
    home = reverse("home")
    return tuple(home + route for route in PASSWORD_ROUTES)
