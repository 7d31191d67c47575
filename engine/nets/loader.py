"""The engine's network: the file of the `EvalFile` option, loaded into the kernel when the first search
or evaluation needs it (start-up and the handshake stay fast), or at once when the option is set.

The kernel holds one network per process (ext/nnue.pxi), so one loader serves one engine.
"""
from __future__ import annotations

from typing import Optional

from .._core import clear_network, network_hidden, network_layer, network_version, set_network
from ..netfile import NetFileError, read_net
from . import locate


class NetworkLoader:
    """Loads `EvalFile` into the kernel, lazily or at once, and says in words what the evaluation is."""

    def __init__(self, eval_file: str) -> None:
        self._eval_file = eval_file
        self._pending = bool(eval_file)
        self._error: Optional[str] = None

    def load(self, eval_file: str) -> None:
        """Load the network file `eval_file` (or the shipped network of that name: engine.nets.locate)
        now, or drop the network for "". Raises NetFileError; the current network then stays."""
        if eval_file:
            set_network(read_net(locate(eval_file)))
        else:
            clear_network()
        self._eval_file, self._pending, self._error = eval_file, False, None

    def ensure(self, use_nnue: bool) -> None:
        """Load the pending network when the evaluation is the network's. A file that cannot be read
        leaves the hand-crafted evaluation, and `summary` says so."""
        if self._pending and use_nnue:
            self._pending = False
            try:
                self.load(self._eval_file)
            except NetFileError as exc:
                self._error = str(exc)

    def summary(self, use_nnue: bool) -> str:
        """Which evaluation the next search uses, in words (for an `info string`)."""
        self.ensure(use_nnue)
        hidden = network_hidden()
        kind = f"{hidden} hidden units" + (", king buckets" if network_version() == 2 else "")
        if network_layer():
            kind += f", a hidden layer of {network_layer()}"
        if use_nnue and hidden:
            return f"NNUE evaluation with {self._eval_file} ({kind}) enabled"
        if use_nnue and self._error:
            return f"{self._error}: using the hand-crafted evaluation"
        if use_nnue:
            return "NNUE enabled but no network is loaded (set EvalFile): using the hand-crafted evaluation"
        if hidden:
            return (f"network {self._eval_file} ({kind}) loaded; the hand-crafted "
                    f"evaluation stays until NNUE is enabled")
        return "using the hand-crafted evaluation"
