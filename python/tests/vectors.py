"""The shared test vectors (`tests/vectors/**/*.json`, format in their README): loading,
placeholders, and the checks every surface applies."""

from __future__ import annotations

import copy
import json
import keyword
import re
from dataclasses import dataclass
from typing import Any

from conftest import TESTS_DIR


@dataclass
class Case:
    tool: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.tool}: {self.data['name']}"

    def settings(self, upstream: str, temp_dir: str) -> dict[str, str]:
        return {
            k: v.replace("${TESTS_DIR}", str(TESTS_DIR)).replace("${UPSTREAM}", upstream)
            .replace("${TEMP_DIR}", temp_dir)
            for k, v in self.data.get("config", {}).items()
        }


    def with_paths(self, temp_dir: str) -> Case:
        """The case with `${TESTS_DIR}` and `${TEMP_DIR}` filled in in its arguments and
        its `before` calls' arguments."""
        text = json.dumps(self.data)
        for name, value in (("${TESTS_DIR}", str(TESTS_DIR)), ("${TEMP_DIR}", temp_dir)):
            text = text.replace(name, json.dumps(value)[1:-1])
        return Case(self.tool, json.loads(text))


def load() -> list[Case]:
    cases = []
    for path in sorted((TESTS_DIR / "vectors").rglob("*.json")):
        file = json.loads(path.read_text())
        cases.extend(Case(file["tool"], case) for case in file["cases"])
    return cases


def method_name(tool: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", tool).lower()


def keyword_arguments(arguments: Any, input_schema: dict[str, Any]) -> dict[str, Any] | None:
    """The vector's arguments as the typed method's keyword arguments, or None when a
    typed call cannot express them (not an object, unknown or missing fields)."""
    if not isinstance(arguments, dict):
        return None
    properties = input_schema.get("properties", {})
    if any(k not in properties for k in arguments):
        return None
    if any(k not in arguments for k in input_schema.get("required", [])):
        return None
    out = {}
    for name, value in arguments.items():
        arg = method_name(name)
        out[arg + "_" if keyword.iskeyword(arg) else arg] = value
    return out


def pointer(body: Any, path: str) -> Any:
    current = body
    for raw in path.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, list):
            index = int(part)
            if index >= len(current):
                raise KeyError(path)
            current = current[index]
        elif isinstance(current, dict) and part in current:
            current = current[part]
        else:
            raise KeyError(path)
    return current


_MISSING = object()


def without(body: Any, paths: list[str]) -> Any:
    """A copy of ``body`` without the values at ``paths``."""
    out = copy.deepcopy(body)
    for path in paths:
        parent_path, _, last = path.rpartition("/")
        try:
            parent = pointer(out, parent_path) if parent_path else out
        except KeyError:
            continue
        key = last.replace("~1", "/").replace("~0", "~")
        if isinstance(parent, dict):
            parent.pop(key, None)
        elif isinstance(parent, list) and key.isdigit() and int(key) < len(parent):
            parent.pop(int(key))
    return out


def problems(case: Case, settings: dict[str, str], is_error: bool, body: Any,
             received: list[dict[str, Any]]) -> list[str]:
    """Every way the answer differs from the case's expectations ([] when it passes)."""
    expect = case.data["expect"]
    found = []
    if is_error != expect["isError"]:
        found.append(f"isError is {is_error}, expected {expect['isError']}")
    patterns = expect.get("patterns", {})
    for path, pattern in patterns.items():
        try:
            actual = pointer(body, path)
        except KeyError:
            actual = _MISSING
        if not isinstance(actual, str) or not re.search(pattern, actual):
            found.append(f"{path} is {actual!r}, expected a string matching {pattern}")
    if "body" in expect and expect["body"] != without(body, list(patterns)):
        found.append(f"body differs: expected {expect['body']}")
    for path, value in expect.get("pointers", {}).items():
        try:
            actual = pointer(body, path)
        except KeyError:
            actual = _MISSING
        if actual != value:
            found.append(f"{path} is {actual!r}, expected {value!r}")
    for path, length in expect.get("lengths", {}).items():
        try:
            actual = pointer(body, path)
        except KeyError:
            actual = None
        if not isinstance(actual, list) or len(actual) != length:
            found.append(f"{path} has length {len(actual) if isinstance(actual, list) else None}, expected {length}")
    if "requests" in expect:
        wanted = expect["requests"]
        if len(wanted) != len(received):
            found.append(f"the fake upstream received {len(received)} requests, expected {len(wanted)}")
        for i, (want, got) in enumerate(zip(wanted, received)):
            if "path" in want and want["path"] != got["path"]:
                found.append(f"request {i}: path {got['path']!r}, expected {want['path']!r}")
            if "query" in want and want["query"] != got["query"]:
                found.append(f"request {i}: query {got['query']!r}, expected {want['query']!r}")
            for name, value in want.get("headers", {}).items():
                if got["headers"].get(name) != value:
                    found.append(f"request {i}: header {name} is {got['headers'].get(name)!r}")
            for name in want.get("absentHeaders", []):
                if name in got["headers"]:
                    found.append(f"request {i}: header {name} must be absent")
            try:
                sent = json.loads(got["body"])
            except ValueError:
                sent = None
            for path, value in want.get("bodyPointers", {}).items():
                try:
                    actual = pointer(sent, path)
                except (KeyError, TypeError):
                    actual = _MISSING
                if actual != value:
                    found.append(f"request {i}: body {path} is {actual!r}, expected {value!r}")
    text = json.dumps(body, ensure_ascii=False)
    for name, value in settings.items():
        if name.endswith("_API_KEY") and value.strip() and value.strip() in text:
            found.append(f"the answer contains the value of {name}")
    return found
