"""Issue 24 (session 41 audit): the TFH401/TFH402/TFH403 shapes the issue lists that no rule example
or test covered, one test per shape, each with the near miss that the rule does report (so the test
fails if the rule stops reading the one thing that makes the shape silent or reported)."""

from __future__ import annotations

import textwrap

import pytest

from smullyan.linter.config import Config
from smullyan.linter.engine import lint_source


def codes(src: str, select: str) -> list[tuple[int, str]]:
    cfg = Config.default().only(*select.split(","))
    findings = lint_source(textwrap.dedent(src), "m.py", cfg)
    assert not [f for f in findings if f.code in ("TFH001", "TFH002")], findings
    return sorted((f.line, f.code) for f in findings)


# --------------------------------------------------------------------------- TFH401: text that reaches no model


def test_a_version_report_for_a_person_is_not_a_message_to_a_model() -> None:
    src = """
    import platform
    from langchain_core.tools import tool

    {decorator}
    def system_info() -> dict:
        '''versions'''
        info = {{"python": platform.python_version()}}
        try:
            import torch
            info["torch"] = torch.__version__
        except Exception as e:
            info["torch"] = f"unavailable: {{e}}"
        return info
    """
    assert codes(src.format(decorator=""), "TFH401") == []
    assert codes(src.format(decorator="@tool"), "TFH401") == [(14, "TFH401")]  # a tool's result: the model reads it


def test_a_metrics_payload_is_telemetry_not_a_message_to_a_model() -> None:
    src = """
    import time
    from langchain_core.messages import ToolMessage

    def timed_call(fn, metrics, messages):
        start = time.monotonic()
        try:
            return fn()
        except Exception as e:
            {sink}
            raise
    """
    assert codes(src.format(sink='metrics.record({"latency": time.monotonic() - start, "error": str(e)})'), "TFH401") == []
    assert codes(src.format(sink='messages.append(ToolMessage(content=str(e), tool_call_id="c"))'), "TFH401") == [(10, "TFH401")]


def test_parse_error_metadata_kept_beside_a_result_is_not_a_message_to_a_model() -> None:
    src = """
    import json
    from langchain_core.messages import ToolMessage

    def parse_result(text):
        meta = {}
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            data = None
            meta["parse_error"] = str(e)
        return {"value": data, "metadata": meta}
    """
    assert codes(src, "TFH401") == []


def test_a_callback_result_saved_to_a_database_is_a_status_record_not_a_message_to_a_model() -> None:
    src = """
    from langchain_core.tools import tool

    {decorator}
    def on_done(run_id: str, fut, db) -> str:
        '''record the run'''
        try:
            result = fut.result()
            db.update(run_id, result=result)
        except Exception as e:
            {handler}
        return run_id
    """
    saved = 'db.update(run_id, status="failed", error=str(e))'
    assert codes(src.format(decorator="", handler=saved), "TFH401") == []
    assert codes(src.format(decorator="@tool", handler=saved), "TFH401") == []  # stored, not returned
    assert codes(src.format(decorator="@tool", handler='return f"failed: {e}"'), "TFH401") == [(11, "TFH401")]


def test_an_error_object_returned_as_a_value_and_stringified_into_a_tool_message_is_reported() -> None:
    src = """
    from langchain_core.messages import ToolMessage

    def _invoke(fn, args):
        try:
            return fn(**args), None
        except Exception as e:
            return None, e

    def run_tools(calls, tools, messages):
        for call in calls:
            out, err = _invoke(tools[call["name"]], call["args"])
            if err is not None:
                messages.append(ToolMessage(content=str(err), tool_call_id=call["id"]))
            else:
                messages.append(ToolMessage(content=out, tool_call_id=call["id"]))
    """
    assert [code for _, code in codes(src, "TFH401")] == ["TFH401"]


# --------------------------------------------------------------------------- TFH402: what is a remote read


def test_a_token_count_with_a_local_tokenizer_is_no_remote_read() -> None:
    src = """
    from tokenizers import Tokenizer
    import requests

    def count_tokens(tok: Tokenizer, text):
        try:
            return {call}
        except Exception:
            return 0
    """
    assert codes(src.format(call="len(tok.encode(text).ids)"), "TFH402") == []
    assert codes(src.format(call='requests.get("https://x/count", params={"t": text}, timeout=5).json()["n"]'),
                 "TFH402") == [(8, "TFH402")]


def test_a_does_exist_check_on_a_store_reports_an_outage_as_false() -> None:
    src = """
    class Store:
        def {name}(self, name) -> bool:
            try:
                self.client.describe_index(name)
                return True
            except Exception:
                return False
    """
    assert codes(src.format(name="does_index_exist"), "TFH402") == [(7, "TFH402")]


# --------------------------------------------------------------------------- TFH403: where cleanup ends


def test_a_cascading_cleanup_after_a_lookup_in_a_broad_except_pass_is_not_a_compensation() -> None:
    cleanup = """
    def drop_collection(client, name):
        try:
            coll = client.get_collection(name)
            client.delete_collection(coll.name)
        except Exception:
            pass
    """
    compensation = """
    def create(client, name, rows):
        client.create_collection(name)
        try:
            client.insert(name, rows)
        except Exception:
            try:
                client.delete_collection(name)
            except Exception:
                pass
            raise
    """
    assert codes(cleanup, "TFH403") == []
    assert codes(compensation, "TFH403") == [(8, "TFH403")]
