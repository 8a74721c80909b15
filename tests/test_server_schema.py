"""schemathesis against the service's own OpenAPI document (in-process, bounded examples).

Every generated request, valid or not, must get a documented status and a body matching the
documented schema, never a 5xx, and a request the schema refuses must be refused (every check of
schemathesis but one). The exception is ``positive_data_acceptance``: a schema-valid request may still
hold a hand no rule allows (``"hand": "1m"``, an empty meld list for a 13-tile shape), which the
engine refuses with a documented 422 — a JSON schema cannot say which tile multisets are hands.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from hupai.server.app import create_app  # noqa: E402

schema = schemathesis.openapi.from_asgi("/openapi.json", create_app())


def not_a_server_error(ctx, response, case) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code < 500, f"{case.method} {case.path} -> {response.status_code}: {response.text}"


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_conforms(case) -> None:  # type: ignore[no-untyped-def]
    response = case.call()
    # every built-in check (status code, content type, headers, response schema, negative data
    # rejection, unsupported methods with Allow, ...) plus not_a_server_error
    case.validate_response(
        response,
        additional_checks=[not_a_server_error],
        excluded_checks=[positive_data_acceptance],
    )
