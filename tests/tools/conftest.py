"""The scripts of tools/ are imported by name (`import spsa`): put tools/ on sys.path."""
import sys

from support import TOOLS

if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
