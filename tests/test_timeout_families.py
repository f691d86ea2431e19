"""s52 (issue 23): the SDK families TFH201 reads as data (``knowledge.API_FAMILIES``, ``SDK_CALL_TIMEOUTS``)."""

from __future__ import annotations

import pytest

from smullyan.linter.knowledge import Knowledge, family_timeout

KB = Knowledge.build()


@pytest.mark.parametrize(
    "qualname",
    [
        "kubernetes.client.CoreV1Api.list_namespaced_pod",
        "kubernetes.client.CustomObjectsApi.get_namespaced_custom_object",
        "kubernetes.client.api.apps_v1_api.AppsV1Api.read_namespaced_deployment",
        "kubernetes.client.VersionApi.get_code",
        "kubernetes_asyncio.client.CoreV1Api.connect_get_namespaced_pod_exec",
        # s54 (batch 26's opensandbox-server): the generated ApiClient, built or held by an API class as `api_client`
        "kubernetes.client.ApiClient.call_api",
        "kubernetes.client.ApiClient.request",
        "kubernetes.client.CoreV1Api.api_client.call_api",
        "kubernetes_asyncio.client.CustomObjectsApi.api_client.call_api",
    ],
)
def test_a_generated_api_method_takes_request_timeout(qualname: str) -> None:
    spec = KB.timeout_for(qualname)
    assert spec is not None and spec.keyword == "_request_timeout" and spec.required
    assert spec.scope_bounds == qualname.startswith("kubernetes_asyncio.")


@pytest.mark.parametrize(
    "qualname",
    [
        "kubernetes.client.CoreV1Api.close",  # not a request
        "kubernetes.client.V1Pod.to_dict",  # a model
        "kubernetes.client.CoreV1Api.api_client.close",  # an attribute's method
        "kubernetes.aio.client.CoreV1Api.list_namespaced_pod",  # 5 minutes by default
        "mylib.client.CoreV1Api.list_namespaced_pod",  # another package's class of that name
        "mylib.client.CoreV1Api.api_client.call_api",  # another package's generated client
        "kubernetes.client.V1Pod.api_client.call_api",  # not an API class
        "kubernetes.client.ApiClient.close",  # not a request
        "psycopg.connect",  # psycopg 3: 130 s by default
        "pymysql.connect",  # 10 s by default
    ],
)
def test_other_names_are_not_in_a_family(qualname: str) -> None:
    assert family_timeout(qualname) is None
    assert KB.timeout_for(qualname) is None


def test_the_watch_and_the_database_drivers() -> None:
    watch = KB.timeout_for("kubernetes.watch.Watch.stream")
    assert watch is not None and watch.keyword == "timeout_seconds" and watch.carried_by == ("_request_timeout",)
    assert watch.no_fix
    pg = KB.timeout_for("psycopg2.connect")
    assert pg is not None and pg.keyword == "connect_timeout" and pg.dsn == ("dsn", 0)
    my = KB.timeout_for("mysql.connector.connect")
    assert my is not None and my.carried_by == ("connection_timeout",)


def test_the_families_stay_out_of_the_shared_timeouts_table() -> None:
    """TFH202, ``smullyan tools`` and ``linter/effects.py`` read ``timeouts``: the families do not change them."""
    assert not any(q.startswith(("kubernetes", "psycopg2", "mysql")) for q in KB.timeouts)


def test_python_gitlab_client_built_without_a_timeout_is_reported() -> None:
    """python-gitlab's ``Gitlab(url, private_token, timeout=None)`` hands its timeout (default None) to every request
    of its session (s57, batch 30's gitlab-emulator; 9 installed packages of batches 1-29 build one so)."""
    from smullyan.linter.config import Config
    from smullyan.linter.engine import lint_source

    src = (
        "import gitlab\n"
        "from gitlab import Gitlab\n"
        "a = gitlab.Gitlab('https://gitlab.com', private_token='t')\n"
        "b = Gitlab(url='https://gitlab.com', private_token='t', timeout=10)\n"
        "c = gitlab.Gitlab('https://gitlab.com', **options)\n"
    )
    found = lint_source(src, "mod.py", Config.default().with_overrides(select=["TFH201"]))
    assert [(f.code, f.line) for f in found] == [("TFH201", 3)]
