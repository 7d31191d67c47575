"""`python -m engine` is the same as the `jiangjun` command."""
from .cli import main

raise SystemExit(main())
