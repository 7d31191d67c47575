"""Engine options as the protocols advertise and parse them: one declaration, two wire forms.

    hash_option = Option("Hash", "spin", default=16, minimum=1, maximum=33554432)
    hash_option.uci_line()     # 'option name Hash type spin default 16 min 1 max 33554432'
    hash_option.ucci_line()    # 'option Hash type spin min 1 max 33554432 default 16'
    hash_option.parse("64")    # 64; a bad value raises OptionError with a message saying why

The protocol modules own their tables of options (names differ between UCI and UCCI) and map parsed
values onto the engine facade.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional, Union

from .commands import CommandError, parse_bool, parse_int

OptionKind = Literal["spin", "check", "button", "combo", "string"]
OptionValue = Union[int, bool, str, None]


class OptionError(CommandError):
    """A `setoption` with an unknown name or a value the option does not accept."""


@dataclass(frozen=True)
class Option:
    """One option: its name as advertised, its type, default and bounds or choices."""

    name: str
    kind: OptionKind
    default: OptionValue = None
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    choices: tuple[str, ...] = ()

    def parse(self, text: Optional[str]) -> OptionValue:
        """The typed value of `text` (None for a button). Raises OptionError for a bad value."""
        if self.kind == "button":
            return None
        if text is None or text == "":
            if self.kind == "string":
                return ""
            raise OptionError(f"option {self.name} needs a value")
        if self.kind == "string" and text == "<empty>":
            return ""     # what the option line advertises as the empty default, sent back by some GUIs
        try:
            if self.kind == "spin":
                return parse_int(text, f"option {self.name}", self.minimum, self.maximum)
            if self.kind == "check":
                return parse_bool(text, f"option {self.name}")
        except CommandError as exc:
            raise OptionError(str(exc)) from None
        if self.kind == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise OptionError(f"option {self.name} accepts {', '.join(self.choices)}, not {text[:40]!a}")
        return text  # string

    def _default_text(self) -> str:
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if self.default is None or self.default == "":
            return "<empty>"
        return str(self.default)

    def uci_line(self) -> str:
        """The UCI `option name ...` line."""
        parts = [f"option name {self.name} type {self.kind}"]
        if self.kind != "button":
            parts.append(f"default {self._default_text()}")
        if self.kind == "spin":
            parts.append(f"min {self.minimum} max {self.maximum}")
        for choice in self.choices:
            parts.append(f"var {choice}")
        return " ".join(parts)

    def ucci_line(self) -> str:
        """The UCCI `option ...` line: no `name` keyword, bounds and choices before the default."""
        parts = [f"option {self.name} type {self.kind}"]
        if self.kind == "spin":
            parts.append(f"min {self.minimum} max {self.maximum}")
        for choice in self.choices:
            parts.append(f"var {choice}")
        if self.kind != "button":
            parts.append(f"default {self._default_text()}")
        return " ".join(parts)
