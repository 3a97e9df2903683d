"""Parsing of OpenSpiel-style specs such as ``star2(max_depth=4,time_limit=0.5)``."""

from __future__ import annotations

from typing import Any


def split_top_level(text: str, separator: str = ",") -> list[str]:
    """Splits on ``separator`` outside parentheses, so values may be specs too."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced ')' in {text!r}")
        if char == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    if depth != 0:
        raise ValueError(f"unbalanced '(' in {text!r}")
    parts.append("".join(current))
    return parts


def parse_value(text: str) -> Any:
    """int, float, bool, none, or the raw string (e.g. a nested evaluator spec)."""
    text = text.strip()
    lowered = text.lower()
    if lowered in ("none", "null"):
        return None
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name(a=1,b=x)"`` -> ``("name", {"a": 1, "b": "x"})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"a spec must be a non-empty string like 'star2(max_depth=3)', got {spec!r}"
        )
    spec = spec.strip()
    if "(" not in spec:
        if ")" in spec:
            raise ValueError(f"unbalanced ')' in spec {spec!r}")
        return spec, {}
    name, rest = spec.split("(", 1)
    if not rest.endswith(")"):
        raise ValueError(f"spec {spec!r} must end with ')': expected 'name(key=value,...)'")
    body = rest[:-1]
    params: dict[str, Any] = {}
    if body.strip():
        for item in split_top_level(body):
            if "=" not in item:
                raise ValueError(
                    f"parameter {item!r} in spec {spec!r} is not of the form key=value"
                )
            key, value = item.split("=", 1)
            key = key.strip()
            if not key:
                raise ValueError(f"empty parameter name in spec {spec!r}")
            if key in params:
                raise ValueError(f"parameter {key!r} given twice in spec {spec!r}")
            params[key] = parse_value(value)
    return name.strip(), params


def format_value(value: Any) -> str:
    """The spec text of one parameter value, read back by `parse_value` as the same value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value).strip()
    try:
        single = len(split_top_level(text)) == 1
    except ValueError:  # unbalanced parentheses
        single = False
    if not text or not single or parse_value(text) != text:
        raise ValueError(f"{value!r} cannot be written as a spec value")
    return text


def with_params(spec: str, **params: Any) -> str:
    """``spec`` with ``params`` set, as one canonical spec string.

    A parameter the spec already has is replaced in place, new ones are appended
    in the given order, and the text of every other parameter is kept as written
    (nested specs included): ``with_params("star2(tt_size=10)", time_limit=0.5)``
    is ``"star2(tt_size=10,time_limit=0.5)"``; ``with_params("star2()")`` is ``"star2"``.
    """
    name, _ = parse_spec(spec)  # refuses malformed specs and duplicate keys
    body = spec.strip()[len(name) :].strip()
    entries: dict[str, str] = {}
    for item in split_top_level(body[1:-1]) if body else []:
        if item.strip():
            key, value = item.split("=", 1)
            entries[key.strip()] = value.strip()
    for key, value in params.items():
        entries[key] = format_value(value)
    text = ",".join(f"{key}={value}" for key, value in entries.items())
    return f"{name}({text})" if text else name
