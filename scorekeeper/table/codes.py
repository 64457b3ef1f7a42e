"""Short codes a person reads off one phone and types into another: a group's join
code and a one-time sign-in code.

Eight characters of Crockford's base 32: digits and capitals without I, L, O and U,
so nothing in a code looks like anything else in it. Typing is forgiving the way
that alphabet means it to be: small letters are capitals, an O is a 0, an I or an L
is a 1, and spaces and dashes are ignored. Eight characters hold 40 bits: guessed
at the rate the doors allow (scorekeeper/site/throttle.py), a code outlives its use.
"""

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# What a code looks like, shown as the code box's example: the same in every language.
EXAMPLE = "K7QM-3XPD"
CODE_LENGTH = 8
# What a person may type for a character of the alphabet.
_TYPED_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = " -\u2010\u2011\u2012\u2013\u2014\u2212\t"


def new_code() -> str:
    """A fresh code, as stored: eight characters of the alphabet, no dash.

    >>> code = new_code()
    >>> len(code), set(code) <= set(ALPHABET), read_code(code) == code
    (8, True, True)
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def read_code(typed: str) -> str | None:
    """The code a person meant by ``typed``, as stored; None when it cannot be one.

    >>> read_code("k7qm-3xpd"), read_code(" K7QM 3XPD "), read_code("1OLI-0000")
    ('K7QM3XPD', 'K7QM3XPD', '10110000')
    >>> read_code("K7QM-3XP"), read_code("K7QM-3XPU"), read_code("x" * 5000)
    (None, None, None)
    """
    if len(typed) > 4 * CODE_LENGTH:
        return None
    code = "".join(ch for ch in typed if ch not in _IGNORED).upper().translate(_TYPED_AS)
    if len(code) != CODE_LENGTH or not set(code) <= set(ALPHABET):
        return None
    return code


def grouped(code: str) -> str:
    """``code`` as shown, in two groups of four: easier to read out and to type.

    >>> grouped("K7QM3XPD")
    'K7QM-3XPD'
    """
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"
