from django.contrib.auth import views as auth_views
from django.urls import path

from scorekeeper.views import accounts, boards, groups, nights, results, rounds, rules, seats

urlpatterns = [
    path("", groups.home, name="home"),
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
    path("rules/", rules.rules, name="rules"),
    path("join/<str:token>/", groups.join, name="join"),
    path("groups/new/", groups.group_create, name="group_create"),
    path("groups/<int:group_id>/", groups.group_detail, name="group_detail"),
    path("groups/<int:group_id>/new-link/", groups.group_new_link, name="group_new_link"),
    path("groups/<int:group_id>/leave/", groups.group_leave, name="group_leave"),
    path("groups/<int:group_id>/nights/new/", nights.night_start, name="night_start"),
    path("nights/<int:night_id>/", nights.night_detail, name="night_detail"),
    path("nights/<int:night_id>/live/", nights.night_live, name="night_live"),
    path("nights/<int:night_id>/entry/", nights.entry_save, name="entry_save"),
    path("nights/<int:night_id>/rounds/", rounds.night_rounds, name="night_rounds"),
    path("nights/<int:night_id>/rounds/<int:number>/edit/", rounds.round_edit, name="round_edit"),
    path("nights/<int:night_id>/undo/", rounds.round_undo, name="round_undo"),
    path("nights/<int:night_id>/seats/add/", seats.seat_add, name="seat_add"),
    path("nights/<int:night_id>/seats/<int:seat_id>/leave/", seats.seat_leave, name="seat_leave"),
    path("nights/<int:night_id>/end/", nights.night_end, name="night_end"),
    path("nights/<int:night_id>/settle/", results.night_settle, name="night_settle"),
    path("nights/<int:night_id>/payments/", results.payment_mark, name="payment_mark"),
    path(
        "nights/<int:night_id>/payments/<int:payment_id>/undo/",
        results.payment_undo,
        name="payment_undo",
    ),
    path("nights/<int:night_id>/export.<str:fmt>", results.night_export, name="night_export"),
    path("groups/<int:group_id>/table/", results.group_table_view, name="group_table"),
    path(
        "groups/<int:group_id>/players/<int:user_id>/",
        results.player_history_view,
        name="player_history",
    ),
    path("groups/<int:group_id>/export.<str:fmt>", results.group_export, name="group_export"),
    path(
        "nights/<int:night_id>/rounds/<int:number>/cards/<int:seat_id>/",
        boards.board_entry,
        name="board_entry",
    ),
]
