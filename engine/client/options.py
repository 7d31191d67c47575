"""The options an external engine declares, read from its handshake in each protocol's syntax, and the
check of a value against the declaration before it is sent.

    option = parse_option_line("option name Hash type spin default 16 min 1 max 1024")   # UCI
    option = parse_option_line("option hashsize type spin min 1 max 1024 default 16")    # UCCI
    option = parse_cecp_option("Hash -spin 64 1 1024")                                   # CECP feature
    option.validate(64)        # '64'
    option.validate(0)         # EngineOptionError: option 'Hash' of Engine: 0 is below its minimum 1 (1..1024)

A validated value is the protocol-neutral text: a whole number for a spin, ``true``/``false`` for a check
(each protocol's process writes it its own way: CECP wants 1/0), the choice as the engine spells it for a
combo, the text itself for a string or a file, nothing for a button.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .errors import EngineOptionError

#: The option types of UCI and UCCI, and CECP's (which names a few differently: slider, file, path, save,
#: reset), as one vocabulary.
KINDS = ("spin", "check", "combo", "string", "button", "file", "path")
_CECP_KINDS = {"spin": "spin", "slider": "spin", "check": "check", "combo": "combo", "string": "string",
               "file": "file", "path": "path", "button": "button", "save": "button", "reset": "button"}
_TRUE = ("true", "on", "1", "yes")
_FALSE = ("false", "off", "0", "no")
_UCI_KEYWORDS = ("name", "type", "default", "min", "max", "var")


@dataclass(frozen=True)
class DeclaredOption:
    """One option as the engine declared it."""

    name: str                       # as the engine spells it
    kind: str                       # one of KINDS
    default: Optional[str] = None
    minimum: Optional[int] = None   # spin
    maximum: Optional[int] = None
    choices: tuple[str, ...] = ()   # combo

    def allowed(self) -> str:
        """What the option takes, for messages: ``1..1024``, ``true or false``, ``one of a, b, c``."""
        if self.kind == "spin":
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            return f"a whole number {low}..{high}"
        if self.kind == "check":
            return "true or false"
        if self.kind == "combo":
            return "one of " + ", ".join(self.choices)
        if self.kind == "button":
            return "no value (a button)"
        return "any text on one line"

    def validate(self, value: object, engine: str = "the engine") -> str:
        """The value as it is sent, or EngineOptionError naming the option and what it takes."""
        def refuse(why: str) -> EngineOptionError:
            return EngineOptionError(f"option {self.name!r} of {engine}: {why}; it takes {self.allowed()}",
                                     self.name)

        text = "" if value is None else (("true" if value else "false") if isinstance(value, bool) else str(value))
        if "\n" in text or "\r" in text:
            raise refuse("a value cannot hold a line break")
        text = text.strip()
        if self.kind == "button":
            if text not in ("", "true"):
                raise refuse(f"{text!r} given")
            return ""
        if self.kind == "check":
            if text.lower() in _TRUE:
                return "true"
            if text.lower() in _FALSE:
                return "false"
            raise refuse(f"{text!r} is not a truth value")
        if self.kind == "spin":
            try:
                number = int(text, 10)
            except ValueError:
                try:
                    real = float(text)
                except ValueError:
                    raise refuse(f"{text!r} is not a number") from None
                if not real.is_integer():
                    raise refuse(f"{text} is not a whole number")
                number = int(real)
            if self.minimum is not None and number < self.minimum:
                raise refuse(f"{number} is below its minimum {self.minimum}")
            if self.maximum is not None and number > self.maximum:
                raise refuse(f"{number} is above its maximum {self.maximum}")
            return str(number)
        if self.kind == "combo" and self.choices:
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise refuse(f"{text!r} is not a choice")
        return text


def _int_or_none(text: Optional[str]) -> Optional[int]:
    try:
        return None if text is None else int(float(text))
    except ValueError:
        return None


def _kind(text: Optional[str]) -> str:
    text = (text or "string").lower()
    return text if text in KINDS else "string"


def parse_option_line(line: str) -> Optional[DeclaredOption]:
    """An `option` line of a UCI (``option name N type T ...``) or UCCI (``option N type T ...``) handshake;
    None for other lines. UCI's words run to the next keyword (a name or a default may hold spaces); an
    empty default is printed ``<empty>``."""
    words = line.split()
    if len(words) < 2 or words[0] != "option":
        return None
    fields: dict[str, list[str]] = {}
    choices: list[str] = []
    if words[1] == "name":
        rest = words[1:]
    else:                                   # UCCI: the name is the one word after `option`
        fields["name"] = [words[1]]
        rest = words[2:]
    key: Optional[str] = None
    for word in rest:
        if word in _UCI_KEYWORDS and not (key == "name" and word == "name"):
            key = word
            if key == "var":
                choices.append("")
            else:
                fields.setdefault(key, [])
            continue
        if key == "var":
            choices[-1] = f"{choices[-1]} {word}".strip()
        elif key is not None:
            fields[key].append(word)
    name = " ".join(fields.get("name", []))
    if not name:
        return None
    default = " ".join(fields["default"]) if "default" in fields else None
    if default == "<empty>":
        default = ""
    return DeclaredOption(name, _kind(" ".join(fields.get("type", [])) or None), default,
                          _int_or_none(" ".join(fields["min"]) if fields.get("min") else None),
                          _int_or_none(" ".join(fields["max"]) if fields.get("max") else None),
                          tuple(choice for choice in choices if choice))


def parse_cecp_option(text: str) -> Optional[DeclaredOption]:
    """The value of a CECP ``feature option="NAME -TYPE ..."`` (engine-intf.html, section 9): ``-spin DEF
    MIN MAX`` (``-slider`` alike), ``-check 0|1``, ``-combo A /// *B /// C`` (the starred choice is the
    default), ``-string TEXT`` (``-file``, ``-path``), ``-button`` (``-save``, ``-reset``). None when it
    cannot be read."""
    head, sep, tail = text.partition(" -")
    # The type is the first ' -word' that is a known type: a name may hold ' -' itself.
    while sep:
        kind_word, _, args = tail.partition(" ")
        if kind_word in _CECP_KINDS:
            break
        more_head, sep, tail = tail.partition(" -")
        head = f"{head} -{more_head}"
    else:
        return None
    name = head.strip()
    if not name:
        return None
    kind = _CECP_KINDS[kind_word]
    values = args.split()
    if kind == "spin":
        numbers = [_int_or_none(v) for v in values[:3]]
        numbers += [None] * (3 - len(numbers))
        return DeclaredOption(name, kind, values[0] if values else None, numbers[1], numbers[2])
    if kind == "check":
        return DeclaredOption(name, kind, "true" if values[:1] == ["1"] else "false")
    if kind == "combo":
        choices, default = [], None
        for choice in args.split("///"):
            choice = choice.strip()
            if choice.startswith("*"):
                choice = choice[1:].strip()
                default = choice
            if choice:
                choices.append(choice)
        return DeclaredOption(name, kind, default if default is not None else (choices[0] if choices else None),
                              choices=tuple(choices))
    if kind == "button":
        return DeclaredOption(name, kind)
    return DeclaredOption(name, kind, args.strip())


def find(declared: dict[str, DeclaredOption], names: Sequence[str]) -> Optional[DeclaredOption]:
    """The first of `names` (any case) that the engine declared."""
    for name in names:
        option = declared.get(name.lower())
        if option is not None:
            return option
    return None
