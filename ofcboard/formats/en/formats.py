# The app's own date formats, by name, so each language writes dates its way:
# templates say |date:"DATE_FORMAT" and never a pattern of their own.
DATE_FORMAT = "j M Y"  # 1 Dec 2026
MONTH_DAY_FORMAT = "D j M"  # Tue 1 Dec
SHORT_DATETIME_FORMAT = "j M H:i"  # 1 Dec 21:30
