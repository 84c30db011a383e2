"""The shared test vectors (`tests/vectors/**/*.json`, format in their README): loading,
placeholders and typed arguments. Answers are judged by the testkit, through the fake
upstream (`FakeUpstream.judge`), as on every surface."""

from __future__ import annotations

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
            k: v.replace("${TESTS_DIR}", str(TESTS_DIR))
            .replace("${UPSTREAM}", upstream)
            .replace("${HFP}", upstream.replace("http://", "mqtt://", 1))
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
