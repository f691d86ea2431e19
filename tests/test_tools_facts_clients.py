"""`smullyan tools` (issue 28): calls on SDK client objects (``knowledge.CLIENT_CLASSES``) are listed and classify the
tool: an object built from a client constructor, returned by a helper annotated with the client class (also through
another object), or given by a client's subscript (``db[name]``); a method the table does not list stays unknown."""

from __future__ import annotations

from pathlib import Path

from tools_support import tools_by_name as _rows


KAFKA = """
    from confluent_kafka.admin import AdminClient
    from langchain_core.tools import tool

    class Base:
        def get_client(self, name) -> AdminClient:
            return CLIENTS[name]

    class Holder:
        def __init__(self):
            self.base = Base()

    holder = Holder()

    @tool
    def list_groups(cluster: str) -> str:
        \"\"\"List the consumer groups.\"\"\"
        client = holder.base.get_client(cluster)
        return str(client.list_consumer_groups().result())

    @tool
    def make_topic(name: str) -> str:
        \"\"\"Create a topic.\"\"\"
        admin = AdminClient({"bootstrap.servers": "k:9092"})
        admin.list_topics()
        return str(admin.create_topics([name]))

    @tool
    def poke(name: str) -> str:
        \"\"\"Call a method the table does not know.\"\"\"
        admin = AdminClient({})
        return str(admin.poll(1))
"""


def test_reads_on_a_client_object_make_a_read_safe_tool(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/k.py": KAFKA})
    t = rows["make_topic"]
    assert [(c.what, c.cls) for c in t.calls] == [("AdminClient.list_topics", "read-safe"),
                                                   ("AdminClient.create_topics", "non-idempotent-write")]
    assert (t.classification, t.key) == ("non-idempotent-write", "missing")
    assert rows["poke"].classification == "unknown" and rows["poke"].calls == []


def test_a_helper_annotated_to_return_a_client_gives_one(tmp_path: Path) -> None:
    src = """
        from confluent_kafka.admin import AdminClient
        from langchain_core.tools import BaseTool

        class Base:
            def _get_client(self, name) -> AdminClient:
                return CLIENTS[name]

        class ListGroups(BaseTool):
            name: str = "list_groups"
            description: str = "List the consumer groups."

            def __init__(self, base: Base):
                super().__init__()
                self.base = base

            def _run(self, cluster: str) -> str:
                client = self.base._get_client(cluster)
                return str(client.list_consumer_groups().result())
    """
    rows = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/k.py": src})
    t = rows["list_groups"]
    assert [(c.what, c.cls) for c in t.calls] == [("AdminClient.list_consumer_groups", "read-safe")]
    assert (t.classification, t.key, t.evidence) == ("read-safe", "not-needed", "AdminClient.list_consumer_groups")


MONGO = """
    import pymongo
    from langchain_core.tools import tool

    class Store:
        def __init__(self):
            self._client = pymongo.MongoClient("mongodb://x")

        def _db(self, name) -> pymongo.database.Database:
            return self._client[name]

        def aggregate(self, coll_name, pipeline):
            db = self._db("app")
            coll = db[coll_name]
            return list(coll.aggregate(pipeline))

        def remove(self, coll_name, doc_id):
            self._client["app"][coll_name].delete_one({"_id": doc_id})

        @tool
        def run_pipeline(self, coll: str, pipeline: list) -> str:
            \"\"\"Aggregate.\"\"\"
            return str(self.aggregate(coll, pipeline))

        @tool
        def delete_doc(self, coll: str, doc_id: str) -> str:
            \"\"\"Delete.\"\"\"
            self.remove(coll, doc_id)
            return "ok"
"""


def test_a_collection_from_a_database_subscript(tmp_path: Path) -> None:
    rows = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": MONGO})
    assert [(c.what, c.cls) for c in rows["run_pipeline"].calls] == [("Collection.aggregate", "read-safe")]
    assert (rows["run_pipeline"].classification, rows["run_pipeline"].key) == ("read-safe", "not-needed")
    assert rows["delete_doc"].classification == "irreversible"


def test_a_post_sent_by_a_function_named_as_a_search_is_a_read(tmp_path: Path) -> None:
    src = """
        import requests
        from langchain_core.tools import tool

        def serper_search(query):
            topic = "search"
            r = requests.request("POST", f"https://google.serper.dev/{topic}", json={"q": query}, timeout=10)
            return r.json()

        def create_issue(title):
            return requests.post("https://tracker.example/issues", json={"title": title}, timeout=10).json()

        @tool
        def web_search(query: str) -> str:
            \"\"\"Search the web.\"\"\"
            return str(serper_search(query))

        @tool
        def file_issue(title: str) -> str:
            \"\"\"File an issue.\"\"\"
            return str(create_issue(title))
    """
    rows = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/s.py": src})
    assert (rows["web_search"].classification, rows["web_search"].key) == ("read-safe", "not-needed")
    assert [c.cls for c in rows["web_search"].calls] == ["read-safe"]
    assert (rows["file_issue"].classification, rows["file_issue"].key) == ("non-idempotent-write", "missing")


def test_a_helper_sending_get_or_post_as_its_caller_says_does_not_classify(tmp_path: Path) -> None:
    helper = """
        import requests

        def send(url, payload, method):
            if method == "GET":
                return requests.get(url, params=payload, timeout=10).json()
            return requests.post(url, json=payload, timeout=10).json()
    """
    src = """
        from langchain_core.tools import tool
        from .http import send

        @tool
        def list_metrics(prefix: str) -> str:
            \"\"\"List metrics.\"\"\"
            return str(send("https://api.example/v1/metrics", {"prefix": prefix}, "GET"))
    """
    rows = _rows(tmp_path, {"pkg/__init__.py": "", "pkg/http.py": helper, "pkg/t.py": src})
    t = rows["list_metrics"]
    assert sorted(c.what.split(" ")[0] for c in t.calls) == ["GET", "POST"]  # both listed
    assert (t.classification, t.evidence) == ("read-safe", "by name (list)")  # the calls do not decide: its name
