"""Log lines for a reader: ``{key}`` becomes a name or "you", ``{key:s}`` its possessive."""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{([a-z]+\d*)(:s)?\}")


def for_reader(text: str, reader: str | None, names: dict[str, str]) -> str:
    def name(match: re.Match) -> str:
        key, possessive = match.group(1), bool(match.group(2))
        if key == reader:
            return "your" if possessive else "you"
        who = names.get(key, "someone")
        return f"{who}\u2019s" if possessive else who

    out = PLACEHOLDER.sub(name, text)
    return out[:1].upper() + out[1:]
