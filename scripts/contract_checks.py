"""Atelier's own schemathesis checks; scripts/contract-test.sh loads them (SCHEMATHESIS_HOOKS).

lowercase_ids (issue 23): ids leave the server in lower case (RFC 9562). An answer fails when its
body or a header (Set-Cookie aside) writes a UUID with an upper-case hex digit, unless the request
itself carried that spelling (an echo, such as a problem's `instance`). The Swift suites run the
same check (Tests/UUIDCasingCheck).
"""

import re
import threading

import schemathesis
from hypothesis.internal import lambda_sources

# Hypothesis describes a filter's lambda (for a strategy's repr only) by parsing its source with
# `ast`. On CPython 3.11 a parse that meets another thread's parse or compile (the fuzzer runs
# --workers 2; imports compile too) raises SystemError "AST constructor recursion depth mismatch",
# a Runtime Error that fails the run. One description at a time, tried again on that error, and
# hypothesis's own "unknown" description if it persists.
_describe_lock = threading.Lock()
_describe = lambda_sources._lambda_description


def _describe_one_at_a_time(*args, **kwargs):
    with _describe_lock:
        for _attempt in range(3):
            try:
                return _describe(*args, **kwargs)
            except SystemError:
                continue
        return "lambda: <unknown>"


lambda_sources._lambda_description = _describe_one_at_a_time

_UUID = re.compile(
    r"(?<![0-9A-Fa-f])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f])"
)
_TEXT_TYPES = ("json", "xml", "javascript", "yaml", "x-www-form-urlencoded")


def upper_case_ids(text):
    """The UUIDs in `text` that have at least one of A-F in upper case."""
    return [found for found in _UUID.findall(text) if re.search("[A-F]", found)]


def _is_text(content_type):
    if not content_type:
        return True
    content_type = content_type.lower()
    return content_type.startswith("text/") or any(kind in content_type for kind in _TEXT_TYPES)


def _request_text(request):
    body = request.body
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    headers = [f"{name}: {value}" for name, value in request.headers.items()]
    return "\n".join([request.url or "", *headers, body or ""])


def findings(headers, content_type, body, asked):
    """What an answer writes in upper case; `headers` maps names to lists of values."""
    found = []
    for name, values in headers.items():
        if name.lower() == "set-cookie":
            continue
        for value in values:
            found += [f"{uuid} in the {name} header" for uuid in upper_case_ids(value) if uuid not in asked]
    if _is_text(content_type):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        for uuid in dict.fromkeys(upper_case_ids(text)):
            if uuid not in asked:
                found.append(f"{uuid} in the body")
    return found


@schemathesis.check
def lowercase_ids(ctx, response, case):
    """Ids are written in lower case (issue 23)."""
    content_type = (response.headers.get("content-type") or [None])[0]
    found = findings(response.headers, content_type, response.content or b"", _request_text(response.request))
    if found:
        raise AssertionError("Ids must be written in lower case (issue 23): " + "; ".join(found))
