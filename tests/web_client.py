"""A page of the web app in the tests: FastAPI's TestClient at a Host name the server answers
to (a loopback server refuses TestClient's default "testserver")."""
from fastapi.testclient import TestClient

LOCAL = "http://127.0.0.1"      # a Host name the server answers to (create_app's loopback names)


def page_client(app, **options):
    """A page of its own: a client with its own cookies (options: TestClient's)."""
    return TestClient(app, base_url=LOCAL, **options)
