"""The FastAPI application (ASGI): the comments API declared with Pydantic models (its input
validated and its answer serialized by them), on the Starlette site's async data layer, page
cache and templates (entry ``asgi:application``)."""
