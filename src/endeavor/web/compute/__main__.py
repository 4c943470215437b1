"""``python -m endeavor.web.compute``: an engine worker (:func:`protocol.main`)."""

from .protocol import main

if __name__ == "__main__":
    raise SystemExit(main())
