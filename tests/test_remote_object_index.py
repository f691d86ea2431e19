"""TFH402's receiver follower reads a stubbed helper on the file's ``ast`` through one index per file (s50)."""

from __future__ import annotations

import ast
import gc

import pytest

from smullyan.rules.errors import remote_object

SOURCE = '''\
import boto3
from google.cloud import storage


class Store:
    def _client(self):
        import httpx
        client = boto3.client("s3")
        return client

    def _bucket(self):
        return storage.Client().bucket("b")


class Store:  # a second class of the name: the first one, in ``ast.walk`` order, is read
    pass
'''


def test_one_walk_of_the_tree_per_file(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = ast.parse(SOURCE)
    walked: list[ast.AST] = []
    real = ast.walk

    def counting(node: ast.AST):  # type: ignore[no-untyped-def]
        walked.append(node)
        return real(node)

    monkeypatch.setattr(remote_object.ast, "walk", counting)
    index = remote_object._index(tree)
    assert remote_object._index(tree) is index
    first = index.classes["Store"]
    assert first is tree.body[2]
    helpers = {f.name: f for f in first.body if isinstance(f, ast.FunctionDef)}
    for _ in range(2):
        for helper in helpers.values():
            index.function(helper)
    assert [n for n in walked if n is tree] == [tree]  # the whole tree once, for every helper and call
    assert sum(1 for n in walked if n is helpers["_client"]) == 1  # each helper once
    imports, local, values = index.function(helpers["_client"])
    assert imports["boto3"] == "boto3" and imports["httpx"] == "httpx" and imports["storage"] == "google.cloud.storage"
    assert set(local) == {"client"} and len(values) == 1


def test_the_index_goes_with_its_tree() -> None:
    tree = ast.parse(SOURCE)
    remote_object._index(tree)
    assert len(remote_object._INDEXES) >= 1
    before = len(remote_object._INDEXES)
    del tree
    gc.collect()
    assert len(remote_object._INDEXES) == before - 1
