"""The web application of ``seqsolve serve`` (Starlette): the page's three files and a
JSON API of one POST route per page action (:mod:`.work`).

Each API request is checked at the door before any work:

* its ``Host`` must be the address the server is bound to (a page of another site
  whose name resolves to 127.0.0.1 — DNS rebinding — is refused), and an ``Origin``,
  which browsers send with every cross-site request, must be that address too;
* its body must be ``application/json`` (what a form or an image of another page
  cannot send without the browser first asking, which this server never answers),
  at most :data:`MAX_BODY` bytes, and a JSON object.

The work itself (a bot's reply, an analysis, an annotation) runs in worker threads, at
most :data:`WORKERS` at once, so that the event loop keeps answering and two heavy
requests do not wait for each other as behind one global lock; each is bounded by the
server's ``--max-seconds``.  A refused request is ``{"error": "one line"}`` with status
400 (403 for a refused origin, 415 for a body that is not JSON), never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from importlib import resources

from . import work

#: heavy requests running at once (the rest wait their turn)
WORKERS = 2
#: the largest request body, in bytes (a pasted record of a long match fits)
MAX_BODY = 4 << 20
#: the page's files: name -> media type
PAGE_FILES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}
#: what the page may load and run: only its own files, nothing from the internet
CONTENT_SECURITY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

#: the API: path -> the function of :mod:`.work` that answers it
ROUTES: dict[str, Callable[[dict, work.Limits], dict]] = {
    "new": work.new_game,
    "play": work.play,
    "undo": work.undo,
    "hint": work.hint,
    "save": work.save,
    "review": work.review,
    "annotate": work.annotate,
    "analyze": work.analyze_position,
}


def _no_constant(name: str):
    """``NaN``, ``Infinity`` and ``-Infinity``, which Python's JSON reads but JSON has not:
    refused at the door rather than by each field."""
    raise ValueError(f"{name} is not JSON")


def _unicode(raw: bytes, body) -> bool:
    r"""Whether ``body``, read from the JSON text ``raw``, holds no lone surrogate escape
    (``"\ud800"``), which :func:`json.loads` reads as a str that cannot be written
    back as UTF-8: an answer or a message quoting it would fail where the request should
    have been refused.

    >>> ok = [b'"\\u00e9"', b'"\\ud83d\\ude00"', b'"\\ud800"']
    >>> [_unicode(raw, json.loads(raw)) for raw in ok]
    [True, True, False]
    """
    if b"\\u" not in raw.lower():
        return True
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def allowed_hosts(host: str, port: int) -> set[str]:
    """The ``Host`` headers a request to a server bound to ``host:port`` may carry: the
    address itself, and ``localhost``'s names for a loopback address.

    >>> sorted(allowed_hosts("127.0.0.1", 8000))
    ['127.0.0.1:8000', '[::1]:8000', 'localhost:8000']
    """
    names = {host}
    if host in ("127.0.0.1", "::1", "localhost"):
        names |= {"127.0.0.1", "::1", "localhost"}
    return {f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in names}


def make_app(limits: work.Limits, hosts: Iterable[str]):
    """The application, answering requests whose ``Host`` is one of ``hosts``."""
    import anyio
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    hosts = {h.lower() for h in hosts}
    origins = {f"http://{h}" for h in hosts}
    workers = anyio.Semaphore(WORKERS)
    headers = {
        "Content-Security-Policy": CONTENT_SECURITY,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }

    def refuse(message: str, status: int = 400) -> JSONResponse:
        # a message quoting the request is still one line, and still encodes (as UTF-8)
        message = " ".join(message.encode("utf-8", "backslashreplace").decode("utf-8").split())
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    def door(request: Request) -> JSONResponse | None:
        """Why ``request`` may not come in (a response), or None."""
        if request.headers.get("host", "").lower() not in hosts:
            return refuse("refused: this server answers only requests addressed to it", 403)
        origin = request.headers.get("origin")
        if origin is not None and origin.lower() not in origins:
            return refuse(f"refused: a request from another site ({origin[:80]})", 403)
        return None

    async def page(request: Request) -> Response:
        refused = door(request)
        if refused is not None:
            return refused
        name = request.path_params.get("name", "index.html")
        if name not in PAGE_FILES:
            return Response("not found", status_code=404, media_type="text/plain", headers=headers)
        body = resources.files(__package__).joinpath("static", name).read_bytes()
        return Response(body, media_type=PAGE_FILES[name], headers=headers)

    async def api(request: Request) -> Response:
        refused = door(request)
        if refused is not None:
            return refused
        answer = ROUTES.get(request.path_params["action"])
        if answer is None:
            return refuse(f"no such request: {request.path_params['action'][:40]}", 404)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return refuse("refused: the request's body must be application/json", 415)
        size = request.headers.get("content-length")
        if size is not None and not size.isdigit():
            return refuse(f"refused: Content-Length {size[:20]!r} is not a number of bytes")
        if size is not None and int(size) > MAX_BODY:
            return refuse(f"refused: a request body is at most {MAX_BODY >> 20} MB", 413)
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                return refuse(f"refused: a request body is at most {MAX_BODY >> 20} MB", 413)
        try:
            body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return refuse("the request's body is not JSON")
        if not _unicode(raw, body):
            return refuse(
                "the request's body holds text that is not Unicode (a lone \\ud800 to \\udfff escape)"
            )
        if not isinstance(body, dict):
            return refuse("the request's body must be a JSON object")
        async with workers:
            try:
                result = await anyio.to_thread.run_sync(answer, body, limits)
            except ValueError as exc:  # a RequestError, or an input error as the command line says it
                return refuse(" ".join(str(exc).split()))
            except Exception as exc:  # noqa: BLE001 - a fault of seqsolve: one line in the page, the trace in the log
                import traceback

                traceback.print_exc()
                return refuse(
                    f"seqsolve failed on this request ({type(exc).__name__}); see the server's log", 500
                )
        return JSONResponse(result, headers=headers)

    async def no_route(request: Request, exc) -> Response:
        """A path or method no route answers (404, 405): for the API, its one line as JSON
        with the door's headers, as every other refusal; for anything else, plain text."""
        status = getattr(exc, "status_code", 404)
        said = getattr(exc, "detail", None) or "Not Found"
        if request.url.path.startswith("/api/"):
            allowed = {"Allow": "POST"} if status == 405 else {}
            response = refuse(f"refused: {said} ({request.method} {request.url.path[:60]})", status)
            response.headers.update(allowed)
            return response
        return Response(said, status_code=status, media_type="text/plain", headers=headers)

    from starlette.exceptions import HTTPException

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/static/{name}", page, methods=["GET"]),
        Route("/api/{action}", api, methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: no_route})
