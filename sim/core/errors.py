"""Errors the user can fix; the CLI turns them into a message and exit code 2."""
import difflib


class UsageError(ValueError):
    """Bad input: names what was wrong and what is allowed."""


def suggest(name: str, allowed) -> str:
    """' (did you mean ...?)' for the closest allowed names, or ''."""
    close = difflib.get_close_matches(str(name), [str(a) for a in allowed], n=3, cutoff=0.5)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def unknown(kind: str, name: str, allowed) -> UsageError:
    allowed = sorted(str(a) for a in allowed)
    return UsageError(f"unknown {kind} {name!r}{suggest(name, allowed)}; allowed: {', '.join(allowed)}")
