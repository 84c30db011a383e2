#!/usr/bin/env python3
"""Generates ``toolpack/_generated.py`` (TypedDicts and one typed method per tool, async
and sync) from the core catalog's JSON schemas. Nothing in it is written by hand.

    python3 python/codegen.py           # regenerate
    python3 python/codegen.py --check   # fail when the committed file drifts from the catalog

The catalog JSON comes from ``cargo run -q -p toolpack --example catalog`` (or a file
given with ``--catalog``).
"""

from __future__ import annotations

import argparse
import json
import keyword
import pathlib
import re
import subprocess
import sys
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
TARGET = HERE / "toolpack" / "_generated.py"


def load_catalog(path: str | None) -> list[dict[str, Any]]:
    if path:
        return json.loads(pathlib.Path(path).read_text())
    out = subprocess.run(
        ["cargo", "run", "-q", "--locked", "-p", "toolpack", "--example", "catalog"],
        cwd=HERE.parent, check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout)


def snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
    return s + "_" if keyword.iskeyword(s) else s


def pascal(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[_\-\s]+", name) if p)


def docstring(text: str, indent: str) -> str:
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').strip()
    lines = text.splitlines() or [""]
    if len(lines) == 1:
        return f'{indent}"""{lines[0]}"""\n'
    body = "\n".join(f"{indent}{line}" if line else "" for line in lines)
    return f'{indent}"""\n{body}\n{indent}"""\n'


class Generator:
    def __init__(self) -> None:
        self.defs: dict[str, str] = {}      # Python name -> source
        self.schemas: dict[str, Any] = {}   # Python name -> schema (for conflicts)
        self.order: list[str] = []

    def define(self, name: str, schema: Any, source_fn: Any) -> str:
        if name in self.schemas:
            if self.schemas[name] != schema:
                sys.exit(f"codegen: two different types are both named {name}; rename one in core")
            return name
        self.schemas[name] = schema
        self.defs[name] = ""  # reserve (recursion)
        self.defs[name] = source_fn()
        self.order.append(name)
        return name

    def py_type(self, schema: Any, defs: dict[str, Any], hint: str) -> str:
        if schema is True or schema == {}:
            return "Any"
        if "$ref" in schema:
            ref = schema["$ref"].rsplit("/", 1)[-1]
            return self.named(ref, defs[ref], defs)
        if "const" in schema:
            return f"Literal[{json.dumps(schema['const'])}]"
        if "enum" in schema:
            values = [v for v in schema["enum"] if v is not None]
            lit = f"Literal[{', '.join(json.dumps(v) for v in values)}]"
            return f"{lit} | None" if None in schema["enum"] else lit
        for combo in ("oneOf", "anyOf"):
            if combo in schema:
                parts: list[str] = []
                for i, sub in enumerate(schema[combo]):
                    t = self.py_type(sub, defs, f"{hint}{i}")
                    parts.append(t)
                if all(p.startswith("Literal[") for p in parts):
                    return "Literal[" + ", ".join(p[8:-1] for p in parts) + "]"
                return " | ".join(dict.fromkeys(parts))
        kinds = schema.get("type")
        if isinstance(kinds, list):
            parts = [self.py_type({**schema, "type": k}, defs, hint) for k in kinds]
            return " | ".join(dict.fromkeys(parts))
        if kinds == "string":
            return "str"
        if kinds == "integer":
            return "int"
        if kinds == "number":
            return "float"
        if kinds == "boolean":
            return "bool"
        if kinds == "null":
            return "None"
        if kinds == "array":
            return f"list[{self.py_type(schema.get('items', True), defs, hint + 'Item')}]"
        if kinds == "object" or "properties" in schema:
            if not schema.get("properties"):
                return "dict[str, Any]"
            return self.named(schema.get("title") or hint, schema, defs)
        return "Any"

    def named(self, name: str, schema: Any, defs: dict[str, Any]) -> str:
        name = pascal(name)
        if schema.get("type") == "object" or "properties" in schema:
            return self.define(name, schema, lambda: self.typed_dict(name, schema, defs))
        return self.define(name, schema, lambda: self.alias(name, schema, defs))

    def alias(self, name: str, schema: Any, defs: dict[str, Any]) -> str:
        target = self.py_type({k: v for k, v in schema.items() if k != "title"}, defs, name)
        doc = f"#: {schema['description'].splitlines()[0]}\n" if schema.get("description") else ""
        return f"{doc}{name} = {target}\n"

    def typed_dict(self, name: str, schema: Any, defs: dict[str, Any]) -> str:
        required = set(schema.get("required", []))
        fields = []
        for prop, sub in schema.get("properties", {}).items():
            t = self.py_type(sub, defs, name + pascal(prop))
            fields.append((prop, t if prop in required else f"NotRequired[{t}]", sub.get("description", "")))
        doc = schema.get("description", f"The `{name}` object.")
        if all(p.isidentifier() and not keyword.iskeyword(p) for p, _, _ in fields):
            out = f"class {name}(TypedDict):\n" + docstring(doc, "    ")
            for prop, t, d in fields:
                out += f"    {prop}: {t}\n"
                if d:
                    out += docstring(d, "    ")
            return out
        items = ", ".join(f"{json.dumps(p)}: {t}" for p, t, _ in fields)
        return f"#: {doc.splitlines()[0]}\n{name} = TypedDict({json.dumps(name)}, {{{items}}})\n"


def success_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """What a typed method returns: the output schema without its error-envelope branches
    (an object whose only required property is ``error``), which are raised instead."""
    defs = schema.get("$defs", {})

    def is_envelope(branch: dict[str, Any]) -> bool:
        target = defs.get(branch["$ref"].rsplit("/", 1)[-1], {}) if "$ref" in branch else branch
        return target.get("required") == ["error"]

    kept = [b for b in schema.get("anyOf", []) if not is_envelope(b)]
    if len(kept) == 1 and len(kept) < len(schema["anyOf"]):
        return {**kept[0], "$defs": defs}
    return schema


def method(tool: dict[str, Any], gen: Generator, is_async: bool) -> str:
    schema = tool["inputSchema"]
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    params, building = [], []
    for prop, sub in schema.get("properties", {}).items():
        t = gen.py_type(sub, defs, pascal(tool["name"]) + pascal(prop))
        arg = snake(prop)
        if prop in required:
            params.append(f"{arg}: {t}")  # keyword-only: defaults may come in any order
            building.append(f"        arguments[{json.dumps(prop)}] = {arg}\n")
        else:
            optional = t if t.endswith("| None") or t == "Any" else f"{t} | None"
            params.append(f"{arg}: {optional} = None")
            building.append(f"        if {arg} is not None:\n            arguments[{json.dumps(prop)}] = {arg}\n")
    gen.py_type(schema, defs, pascal(tool["name"]) + "Request")
    out_schema = success_schema(tool["outputSchema"])
    result = gen.py_type(out_schema, out_schema.get("$defs", {}), pascal(tool["name"]) + "Response")
    sig = ", ".join(["self", "*"] + params) if params else "self"
    prefix = "async def" if is_async else "def"
    call = "await self._typed" if is_async else "self._typed"
    doc = tool["description"] + (
        "\n\nRaises a ``toolpack.ToolpackError`` subclass (with ``.code`` and ``.payload``) "
        "when the tool answers with a contract error."
    )
    return (
        f"    {prefix} {snake(tool['name']).rstrip('_')}({sig}) -> {result}:\n"
        + docstring(doc, "        ")
        + "        arguments: dict[str, Any] = {}\n"
        + "".join(building)
        + f"        return {call}({json.dumps(tool['name'])}, arguments)  # type: ignore[no-any-return]\n"
    )


def generate(catalog: list[dict[str, Any]]) -> str:
    gen = Generator()
    async_methods, sync_methods = [], []
    for tool in catalog:
        async_methods.append(method(tool, gen, True))
        sync_methods.append(method(tool, gen, False))
    names = ", ".join(json.dumps(t["name"]) for t in catalog)
    head = (
        '"""Typed tool methods and result types, generated by ``python/codegen.py`` from the\n'
        'toolpack catalog (the core\'s JSON schemas). Do not edit: regenerate."""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Any, Literal, NotRequired, TypedDict\n\n"
        f"#: Every tool of the catalog, in catalog order.\nTOOL_NAMES: tuple[str, ...] = ({names},)\n\n"
    )
    types = "\n\n".join(gen.defs[n] for n in gen.order)
    async_cls = (
        "class AsyncTools:\n"
        '    """One awaitable method per catalog tool (mixed into ``AsyncToolpack``)."""\n\n'
        "    async def _typed(self, name: str, arguments: dict[str, Any]) -> Any:\n"
        "        raise NotImplementedError\n\n" + "\n".join(async_methods)
    )
    sync_cls = (
        "class SyncTools:\n"
        '    """One blocking method per catalog tool (mixed into ``Toolpack``)."""\n\n'
        "    def _typed(self, name: str, arguments: dict[str, Any]) -> Any:\n"
        "        raise NotImplementedError\n\n" + "\n".join(sync_methods)
    )
    return head + types + "\n\n" + async_cls + "\n\n" + sync_cls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if the committed file differs")
    parser.add_argument("--catalog", help="catalog JSON file (default: run the core's catalog example)")
    args = parser.parse_args()
    text = generate(load_catalog(args.catalog))
    if args.check:
        if not TARGET.exists() or TARGET.read_text() != text:
            print(f"codegen: {TARGET.relative_to(HERE.parent)} is out of date with the catalog; "
                  "run `python3 python/codegen.py`", file=sys.stderr)
            return 1
        print("codegen: generated Python types match the catalog")
        return 0
    TARGET.write_text(text)
    print(f"codegen: wrote {TARGET.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
