"""A night whose seats and first dealer were drawn by the app, not picked."""

from django.db import models
from django.utils import timezone

from scorekeeper.models.nights import Night


class SeatDraw(models.Model):
    """The draw is the night's seats in order and its first round's dealer; this row
    says they came from a draw, so every phone can say so for the first round."""

    night = models.OneToOneField(Night, on_delete=models.CASCADE, related_name="seat_draw")
    drawn_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"seats of night {self.night_id} drawn"
