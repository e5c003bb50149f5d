"""The web page: ``satnono serve`` (the optional ``[web]`` extra: Starlette and uvicorn).

:mod:`.work` is what the page asks for (open, check, solve with the steps, count, export),
:mod:`.app` the server that runs each request in a process of its own, and ``static/``
the page itself: plain HTML, CSS and JavaScript, no build step, nothing fetched from
elsewhere, so it works with no internet.
"""
