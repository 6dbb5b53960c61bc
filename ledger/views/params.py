"""Parameters of a URL or a post that are numbers (``?again=``, ``?table=``, ``parts``...):
read by ``ledger.cleaning.read_number`` alone (the ASCII digits 0-9, nothing else), so that
``²``, ``١٢``, ``３``, ``1e3``, `` 1 `` or ``-0`` get the same answer everywhere: a 400 that
names the parameter, before anything is stored. Not a 500, and not a number read as
another (``int("١٢")`` is 12)."""

from __future__ import annotations

from functools import wraps

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from ledger import cleaning
from ledger.presentation.refusals import refusal_words


class BadParameter(Exception):
    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name, self.message = name, message


def number_param(query, name: str, *, default: int | None = None, minimum: int = 0,
                 maximum: int | None = None) -> int | None:
    """``query[name]`` as a whole number, ``default`` when absent or empty; BadParameter
    (with a message naming it) when written any other way than with the digits 0-9."""
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    try:
        return cleaning.read_number(raw, what=gettext("The parameter '%(name)s'") % {
            "name": name}, minimum=minimum, maximum=maximum)
    except cleaning.Refused as exc:
        raise BadParameter(name, refusal_words(exc)) from None


def bad_parameter_response(request, exc: BadParameter, *, json: bool = False) -> HttpResponse:
    if json:
        return JsonResponse({"status": "refused", "errors": {exc.name: [exc.message]},
                             "problems": [exc.message], "message": exc.message}, status=400)
    return render(request, "400.html", {"message": exc.message}, status=400)


def refuses_bad_parameters(view=None, *, json: bool = False):
    """A view whose BadParameter becomes the 400 answer (JSON for the phone's queue)."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            try:
                return view(request, *args, **kwargs)
            except BadParameter as exc:
                return bad_parameter_response(request, exc, json=json)

        return wrapper

    return decorate(view) if view is not None else decorate
