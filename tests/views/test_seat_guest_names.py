"""A guest named as a member of the group is refused in words on the page that
seats them, and nothing is saved."""

from django.urls import reverse

from scorekeeper.models import Night, User

REFUSAL = (
    "Kees is a member of this group: pick them from the members, "
    "or add a letter to tell the guest apart."
)


def test_a_guest_named_as_a_member_is_refused_in_words_on_both_pages(login, make_group):
    group = make_group(members=("Anna", "Bram", "Kees"))
    anna, bram = User.objects.get(name="Anna"), User.objects.get(name="Bram")
    client = login("Anna")
    form = {"game": "standard", "point_value": "0.10", "dealer": "1", "seat_1": anna.pk}

    start = client.post(
        reverse("night_start", args=[group.pk]), {**form, "seat_2": bram.pk, "guest_3": "KEES"}
    )
    assert start.status_code == 200
    assert REFUSAL in start.content.decode()
    assert not Night.objects.exists()

    client.post(reverse("night_start", args=[group.pk]), {**form, "guest_2": "Gus"})
    night = Night.objects.get()
    seat = client.post(reverse("seat_add", args=[night.pk]), {"guest": "kees", "position": "3"})
    assert seat.status_code == 200
    assert REFUSAL in seat.content.decode()
    assert [s.name for s in night.seats.order_by("position")] == ["Anna", "Gus"]
