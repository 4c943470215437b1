"""The browser app (``endeavor serve``): an adapter beside the engine that uses only its
public API. FastAPI, SQLAlchemy, pydantic and Uvicorn come with the ``web`` extra
(``pip install 'endeavor[web]'``). Design and HTTP contract: ``docs/web.md``."""
