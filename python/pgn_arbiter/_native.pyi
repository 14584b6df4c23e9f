"""Types of the native part of pgn_arbiter (see pgn_arbiter/__init__.py)."""

from typing import List, Optional

class UsageError(ValueError):
    """Options the command line would refuse, with its message."""

class AuditError(Exception):
    """An audit that could not read an input or finish."""

class Run:
    """One audit under way."""

    def next_chunk(self) -> Optional[bytes]:
        """The next chunk of whole lines of the report, or None at its end."""
    def close(self) -> None:
        """Stops reading; the run ends at its next write and is waited for."""
    @property
    def status(self) -> Optional[int]:
        """The exit status, once the run has ended."""
    @property
    def summary(self) -> Optional[str]:
        """The summary as JSON text, once the run has ended."""

def start(args: List[str], stream: str, text: Optional[bytes] = None, name: Optional[str] = None) -> Run:
    """Starts an audit with the command line's arguments."""

def main(args: List[bytes]) -> int:
    """Runs the command line; returns its exit status."""

def version() -> str:
    """The package's version."""
