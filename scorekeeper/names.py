"""Display names: the name a person signs in with is the name the others see."""

import unicodedata

MAX_NAME_LENGTH = 30


def clean_name(raw: str) -> str:
    """Trim and collapse spaces; raise ValueError with a plain message when unusable.

    >>> clean_name("  Anna   Maria ")
    'Anna Maria'
    """
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise ValueError("Please enter a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"A name can have at most {MAX_NAME_LENGTH} characters.")
    # Letters of any script, with their accents (category M), and spaces.
    if not all(ch == " " or unicodedata.category(ch)[0] in "LM" for ch in name):
        raise ValueError("A name can only have letters and spaces.")
    return name


def suggest_alternative(name: str, taken: set[str]) -> str:
    """A free name like "Tom B" for a taken "Tom" (taken holds lower-cased names)."""
    for letter in "BCDEFGHJKLMNPRSTVW":
        candidate = f"{name[: MAX_NAME_LENGTH - 2]} {letter}"
        if candidate.lower() not in taken:
            return candidate
    return f"{name[: MAX_NAME_LENGTH - 3]} ZZ"
